// The scheduler's messages and transport (experiments/schedule/messages.hpp, transport.hpp): every
// message survives its wire form, a malformed one is an error naming its tag, and run_specs over
// two ranks of an in-process transport (rank 1 on a thread) gives the outcomes of one process.
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>

#include "experiments/schedule/messages.hpp"
#include "experiments/schedule/runner.hpp"
#include "experiments/schedule/transport.hpp"
#include "experiments/spec/spec.hpp"
#include "tests/test_util.hpp"

using namespace plab;
using nlohmann::json;

namespace {

Message round_trip(const Message& m) {
  const WireMessage w = encode(m);
  EXPECT_EQ(w.tag, static_cast<int>(m.index()) + 1);
  return decode(w);
}

TEST(ScheduleMessages, EveryMessageSurvivesItsWireForm) {
  EXPECT_EQ(std::get<WantCell>(round_trip(WantCell{7})).stage, 7u);
  const auto a = std::get<AssignCell>(round_trip(AssignCell{2, 41, "abc"}));
  EXPECT_EQ(a.stage, 2u);
  EXPECT_EQ(a.index, std::optional<std::size_t>(41));
  EXPECT_EQ(a.key, "abc");
  EXPECT_FALSE(std::get<AssignCell>(round_trip(AssignCell{3, std::nullopt, ""})).index.has_value());
  const json doc = {{"results", {{"mistakes", 12}, {"online_error", 0.1 + 0.2}}}};
  const auto d = std::get<CellDone>(round_trip(CellDone{"k", doc, "", 0.25, std::nan("")}));
  EXPECT_EQ(d.doc, doc);  // 0.1 + 0.2 keeps its bits through the JSON text
  EXPECT_EQ(d.seconds, 0.25);
  EXPECT_TRUE(std::isnan(d.cell_seconds));
  EXPECT_EQ(std::get<CellDone>(round_trip(CellDone{"k", nullptr, "boom", 1, 2})).error, "boom");
  const auto e = std::get<StageEnd>(round_trip(StageEnd{{{"R1", "a9a", "rbp", 3, 4, {{"support_size", 9}}}}}));
  ASSERT_EQ(e.results.size(), 1u);
  EXPECT_EQ(e.results[0].algo_id, "rbp");
  EXPECT_EQ(e.results[0].point_index, 3u);
  EXPECT_EQ(e.results[0].perm, 4);
  EXPECT_EQ(e.results[0].results["support_size"], 9);
  EXPECT_EQ(std::get<RankFailed>(round_trip(RankFailed{"disk full"})).what, "disk full");
  EXPECT_TRUE(std::holds_alternative<Release>(round_trip(Release{})));
}

TEST(ScheduleMessages, MalformedMessagesNameTheirTag) {
  try {
    decode({2, R"({"stage": 1})"});  // no index, no key
    FAIL() << "decoded a malformed AssignCell";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tag 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(decode({1, "not json"}), std::runtime_error);
  EXPECT_THROW(decode({9, "{}"}), std::runtime_error);
}

// Ranks of one process: messages go through their wire form into per-rank mailboxes.
class Loopback final : public Transport {
 public:
  struct Bus {
    std::mutex m;
    std::deque<std::tuple<int, int, WireMessage>> q;  // dest, source, message
  };
  Loopback(int rank, int size, Bus& bus) : rank_(rank), size_(size), bus_(bus) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void send(int dest, const Message& m) override {
    std::lock_guard<std::mutex> lock(bus_.m);
    bus_.q.emplace_back(dest, rank_, encode(m));
  }
  std::optional<Envelope> try_recv(int source) override {
    std::lock_guard<std::mutex> lock(bus_.m);
    for (auto it = bus_.q.begin(); it != bus_.q.end(); ++it)
      if (std::get<0>(*it) == rank_ && (source < 0 || std::get<1>(*it) == source)) {
        Envelope e{std::get<1>(*it), decode(std::get<2>(*it))};
        bus_.q.erase(it);
        return e;
      }
    return std::nullopt;
  }

 protected:
  void end_job(int code) override { ADD_FAILURE() << "a rank ended the job with " << code; }

 private:
  int rank_, size_;
  Bus& bus_;
};

TEST(ScheduleTransport, TwoRanksGiveTheOutcomesOfOneProcess) {
  const std::vector<Spec> specs = {parse_spec(json::parse(R"({
    "figure": "TWO", "permutations": 3,
    "datasets": [{"id": "syn", "data": "synthetic:dekel:n=150,seed=3", "kernel": {"type": "rbf", "gamma": 1}}],
    "algorithms": [
      {"id": "perceptron", "algo": "kernel-perceptron"},
      {"id": "stoptron", "algo": "stoptron", "params": {"budget": {"from": "perceptron", "field": "support_size"}}}
    ],
    "plots": [{"id": "err", "type": "curve", "metric": "online_error"}]
  })"), false)};
  plab::test_util::TempDir tmp("two_ranks");
  RunnerOptions one;
  one.cells_dir = (tmp.p / "one").string();
  one.jobs = 2;
  const auto alone = run_specs(specs, one);

  Loopback::Bus bus;
  Loopback r0(0, 2, bus), r1(1, 2, bus);
  RunnerOptions o0 = one, o1 = one;
  o0.cells_dir = o1.cells_dir = (tmp.p / "two").string();
  o0.jobs = o1.jobs = 1;
  o0.transport = &r0;
  o1.transport = &r1;
  std::thread worker([&] { EXPECT_TRUE(run_specs(specs, o1).empty()); });  // returns once released
  RunStats st;
  const auto two = run_specs(specs, o0, &st);
  release_workers(r0);
  worker.join();

  EXPECT_EQ(st.total, 6u);  // 3 perceptron cells, then 3 stoptron cells budgeted by them
  EXPECT_EQ(st.failed, 0u);
  ASSERT_EQ(two.at("TWO").size(), alone.at("TWO").size());
  for (std::size_t i = 0; i < alone.at("TWO").size(); ++i) {
    EXPECT_EQ(two.at("TWO")[i].key, alone.at("TWO")[i].key);
    EXPECT_EQ(two.at("TWO")[i].doc, alone.at("TWO")[i].doc);
  }
}

}  // namespace
