// A Dataset's row arrays owned or borrowed (datasets/data_array.hpp): a borrowed Dataset reads the
// very memory it was given, as the owned one it mirrors; it cannot grow; copies share the owner.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/huge_pages.hpp"
#include "datasets/dataset.hpp"

using namespace plab;

namespace {

struct Csr {  // arrays held elsewhere, as numpy's are
  std::vector<std::size_t> rowptr{0, 2, 2, 5};
  std::vector<uint32_t> idx{1, 4, 0, 2, 7};
  std::vector<double> val{0.5, -2.0, 3.0, 1.0, -0.25};
};

Dataset borrowed(const std::shared_ptr<Csr>& c) {
  Dataset d;
  d.rowptr = DataArray<std::size_t>::borrow(c->rowptr);
  d.idx = DataArray<uint32_t>::borrow(c->idx);
  d.val = DataArray<double>::borrow(c->val);
  d.y = {1.0, -1.0, 1.0};
  d.sqnorm = {4.25, 0.0, 10.0625};
  d.dim = 8;
  d.owner = c;
  return d;
}

}  // namespace

TEST(DataArray, BorrowedDatasetReadsTheGivenMemoryAsTheOwnedOne) {
  auto c = std::make_shared<Csr>();
  const Dataset b = borrowed(c);
  Dataset o;  // the same rows through push_back
  o.push_back(std::vector<uint32_t>{1, 4}, std::vector<double>{0.5, -2.0}, 1.0);
  o.push_back({}, {}, -1.0);
  o.push_back(std::vector<uint32_t>{0, 2, 7}, std::vector<double>{3.0, 1.0, -0.25}, 1.0);
  EXPECT_TRUE(b.idx.borrowed() && b.val.borrowed() && b.rowptr.borrowed());
  EXPECT_FALSE(o.idx.borrowed() || o.val.borrowed() || o.rowptr.borrowed());
  EXPECT_EQ(b.idx.data(), c->idx.data());
  EXPECT_EQ(b.val.data(), c->val.data());
  EXPECT_EQ(b.rowptr, o.rowptr);
  EXPECT_EQ(b.idx, o.idx);
  EXPECT_EQ(b.val, o.val);
  EXPECT_EQ(b.sqnorm, o.sqnorm);  // push_back's norms: 0.25 + 4, 0, 9 + 1 + 0.0625
  for (std::size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(b[t].idx.data(), c->idx.data() + c->rowptr[t]);
    EXPECT_EQ(b[t].idx.size(), o[t].idx.size());
    EXPECT_EQ(dot(b[t], b[t]), dot(o[t], o[t]));
  }
}

TEST(DataArray, BorrowedArraysCannotGrow) {
  Dataset b = borrowed(std::make_shared<Csr>());
  EXPECT_THROW(b.push_back(std::vector<uint32_t>{0}, std::vector<double>{1.0}, 1.0), std::logic_error);
  EXPECT_THROW(b.idx.resize(0), std::logic_error);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(b.idx.size(), 5u);  // unchanged by the refused calls
}

TEST(DataArray, CopiesShareTheOwnerAndOwnedCopiesAreIndependent) {
  auto c = std::make_shared<Csr>();
  const uint32_t* at = c->idx.data();
  Dataset copy;
  {
    const Dataset b = borrowed(c);
    c.reset();  // the Dataset alone keeps the arrays alive now
    copy = b;
    EXPECT_EQ(b.owner.use_count(), 2);
  }
  EXPECT_EQ(copy.owner.use_count(), 1);
  EXPECT_EQ(copy.idx.data(), at);
  EXPECT_EQ(copy[2].val[2], -0.25);

  Dataset o;
  o.push_back(std::vector<uint32_t>{3}, std::vector<double>{2.0}, 1.0);
  Dataset o2 = o;
  o2.push_back(std::vector<uint32_t>{1}, std::vector<double>{1.0}, -1.0);
  EXPECT_NE(o2.idx.data(), o.idx.data());
  EXPECT_EQ(o.size(), 1u);
  EXPECT_EQ(o.idx.size(), 1u);
  EXPECT_EQ(o2.idx.size(), 2u);
}

// An owned array of 2 MB or more (core/huge_pages.hpp): its first kSmallHead bytes end on a 2 MB
// boundary (the head on 4 KB pages, the rest advised for huge ones), every byte is usable, and it
// grows and frees as any vector (the sanitizer build checks the frees).
TEST(DataArray, LargeOwnedArraysEndTheirSmallHeadOnA2MBBoundary) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  for (const std::size_t n : {std::size_t{1} << 10, kHuge / 8, kHuge / 8 + 1, 3 * kHuge / 8 + 5}) {
    DataArray<double> a;
    a.reserve(n);
    const auto at = reinterpret_cast<std::uintptr_t>(a.data());
    EXPECT_EQ(at % 64, 0u) << n;
    if (n * sizeof(double) >= kHuge) {
      EXPECT_EQ((at + kSmallHead) % kHuge, 0u) << n;
    }
    for (std::size_t i = 0; i < n; ++i) a.push_back(static_cast<double>(i));
    a.push_back(-1.0);  // past the reservation: a move into a new block
    ASSERT_EQ(a.size(), n + 1);
    EXPECT_EQ(a[n / 2], static_cast<double>(n / 2));
    EXPECT_EQ(a[n], -1.0);
  }
}
