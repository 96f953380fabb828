#include "experiments/run/trace_names.hpp"

#include "algorithms/registry.hpp"
#include "core/format.hpp"

namespace plab {

namespace {

std::string label_value(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return format_g(v.get<double>(), 6);
  return v.dump();
}

// "k=v k=v" of a JSON object's entries (null values left out: an option not set).
std::string label_entries(const nlohmann::json& o) {
  std::string out;
  if (!o.is_object()) return out;
  for (const auto& [k, v] : o.items())
    if (!v.is_null()) out += (out.empty() ? "" : " ") + k + "=" + label_value(v);
  return out;
}

}  // namespace

std::string trace_label(const nlohmann::json& meta) {
  std::string label = meta.value("algo", std::string("?"));
  if (const std::string opts = label_entries(meta.value("options", nlohmann::json::object())); !opts.empty())
    label += " " + opts;
  if (meta.contains("kernel") && meta["kernel"].is_object()) {
    const auto& k = meta["kernel"];
    const std::string type = k.value("type", std::string());
    // The parameters the kernel reads: gamma for rbf; gamma, coef0 and degree for poly.
    if (type == "rbf" && k.contains("gamma")) label += ", rbf gamma=" + label_value(k["gamma"]);
    if (type == "poly")
      label += ", poly " + label_entries(nlohmann::json{{"gamma", k.value("gamma", nlohmann::json())},
                                                        {"coef0", k.value("coef0", nlohmann::json())},
                                                        {"degree", k.value("degree", nlohmann::json())}});
  }
  if (meta.contains("data") && meta["data"].is_object() && meta["data"].value("name", std::string()) != "")
    label += ", " + meta["data"]["name"].get<std::string>();
  return label;
}

std::string no_support_reason(const nlohmann::json& meta) {
  const std::string algo = meta.value("algo", std::string());
  if (algo == "perceptron")
    return "the primal Perceptron keeps one weight vector, not a support set (its support_size counts updates)";
  if (const LearnerInfo* info = find_learner(algo); info && info->trace.no_supports)
    return algo + " keeps a weight vector, not a support set (its support_size is 0)";
  return "";
}

}  // namespace plab
