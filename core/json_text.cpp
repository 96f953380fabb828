#include "core/json_text.hpp"

#include <set>
#include <vector>

namespace plab {

namespace {
constexpr std::size_t kEcho = 80;
std::string cut(std::string s) {
  if (s.size() <= kEcho) return s;
  const std::size_t n = s.size();
  s.resize(kEcho);
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  return s + "... (" + std::to_string(n) + " characters)";
}
}  // namespace

std::string json_depth_fault(std::string_view text, std::size_t max_depth) {
  struct Frame {
    bool object;
    std::string_view key;
    std::size_t index = 0;
  };
  std::vector<Frame> stack;
  std::string_view last_string;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t start = ++i;
      while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      last_string = text.substr(start, std::min(i, text.size()) - start);
      continue;
    }
    if (c == ':' && !stack.empty() && stack.back().object) stack.back().key = last_string;
    else if (c == ',' && !stack.empty() && !stack.back().object) ++stack.back().index;
    else if (c == '[' || c == '{') {
      if (stack.size() >= max_depth) {
        // The field: the keys down to the last object, with the array indices between them (the
        // run of arrays below it is the deep value itself).
        while (!stack.empty() && !stack.back().object) stack.pop_back();
        std::string path;
        for (const Frame& f : stack) {
          if (path.size() > kEcho) { path += "..."; break; }
          if (f.object) path += (path.empty() ? "" : ".") + std::string(f.key.substr(0, 40));
          else path += "[" + std::to_string(f.index) + "]";
        }
        std::string where = path.empty() ? "the value" : "field '" + cut(path) + "'";
        for (char& ch : where)
          if (static_cast<unsigned char>(ch) < 0x20) ch = '?';
        return where + " nests arrays or objects deeper than " + std::to_string(max_depth) +
               " levels (at byte " + std::to_string(i) + " of " + std::to_string(text.size()) + ")";
      }
      stack.push_back({c == '{', {}, 0});
    } else if ((c == ']' || c == '}') && !stack.empty()) stack.pop_back();
  }
  return "";
}

nlohmann::json parse_json(std::string_view text) {
  if (std::string fault = json_depth_fault(text); !fault.empty()) throw JsonTooDeep(fault);
  // The keys of every open object, innermost last (the depth is bounded above), and the path to it.
  std::vector<std::set<std::string>> keys;
  std::vector<std::string> path;
  std::string last_key;
  const nlohmann::json::parser_callback_t cb = [&](int, nlohmann::json::parse_event_t ev, nlohmann::json& v) {
    using E = nlohmann::json::parse_event_t;
    if (ev == E::object_start) {
      path.push_back(keys.empty() ? "" : last_key);
      keys.emplace_back();
    } else if (ev == E::object_end) {
      keys.pop_back();
      path.pop_back();
    } else if (ev == E::key) {
      last_key = v.get<std::string>();
      if (!keys.back().insert(last_key).second) {
        std::string where;
        for (std::size_t i = 1; i < path.size(); ++i) where += (where.empty() ? "" : ".") + path[i];
        throw JsonRefused((where.empty() ? std::string("the top object") : "field '" + cut(where) + "'") +
                          " gives the key '" + cut(last_key) + "' twice");
      }
    }
    return true;
  };
  return nlohmann::json::parse(text, cb);
}

std::string json_error_text(const std::exception& e) {
  std::string s = e.what();
  if (s.size() <= 240) return s;
  const std::size_t n = s.size();
  s.resize(240);
  return s + "... (" + std::to_string(n) + " characters)";
}

std::string json_excerpt(const nlohmann::json& v) {
  return cut(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace plab
