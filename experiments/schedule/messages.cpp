#include "experiments/schedule/messages.hpp"

#include "core/json_text.hpp"

#include <stdexcept>
#include <type_traits>

namespace plab {

using nlohmann::json;

namespace {

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }
double number_or_nan(const json& v) { return v.is_number() ? v.get<double>() : std::nan(""); }

json to_payload(const WantCell& m) { return {{"stage", m.stage}}; }
json to_payload(const AssignCell& m) {
  return {{"stage", m.stage}, {"index", m.index ? json(*m.index) : json()}, {"key", m.key}};
}
json to_payload(const CellDone& m) {
  return {{"key", m.key}, {"doc", m.doc}, {"error", m.error}, {"seconds", number_or_null(m.seconds)},
          {"cell_seconds", number_or_null(m.cell_seconds)}};
}
json to_payload(const StageEnd& m) {
  json rows = json::array();
  for (const auto& r : m.results) rows.push_back({r.figure, r.dataset, r.algo_id, r.point_index, r.perm, r.results});
  return rows;
}
json to_payload(const RankFailed& m) { return {{"what", m.what}}; }
json to_payload(const Release&) { return json::object(); }

Message from_payload(int tag, const json& j) {
  switch (tag) {
    case 1: return WantCell{j.at("stage").get<std::size_t>()};
    case 2: {
      const json& i = j.at("index");
      return AssignCell{j.at("stage").get<std::size_t>(),
                        i.is_null() ? std::nullopt : std::optional<std::size_t>(i.get<std::size_t>()),
                        j.at("key").get<std::string>()};
    }
    case 3:
      return CellDone{j.at("key").get<std::string>(), j.at("doc"), j.at("error").get<std::string>(),
                      number_or_nan(j.at("seconds")), number_or_nan(j.at("cell_seconds"))};
    case 4: {
      StageEnd m;
      for (const json& r : j)
        m.results.push_back({r.at(0).get<std::string>(), r.at(1).get<std::string>(), r.at(2).get<std::string>(),
                             r.at(3).get<std::size_t>(), r.at(4).get<int>(), r.at(5)});
      return m;
    }
    case 5: return RankFailed{j.at("what").get<std::string>()};
    case 6: return Release{};
    default: throw std::runtime_error("unknown message tag " + std::to_string(tag));
  }
}

}  // namespace

WireMessage encode(const Message& m) {
  return {static_cast<int>(m.index()) + 1, std::visit([](const auto& x) { return to_payload(x).dump(); }, m)};
}

Message decode(const WireMessage& w) {
  try {
    return from_payload(w.tag, parse_json(w.payload));
  } catch (const json::exception& e) {
    throw std::runtime_error("malformed message (tag " + std::to_string(w.tag) + "): " + e.what());
  }
}

}  // namespace plab
