#include "traces/manifests.h"

#include <algorithm>

#include "traces/k8s_json.h"

namespace schedcheck::trace {
namespace {


Outcome AddObject(const nlohmann::json& obj, const std::string& where, Manifests* out) {
  if (!obj.is_object()) return Error{where + ": expected a Kubernetes object"};
  std::string kind = obj.value("kind", "");
  if (kind == "List" || (kind.size() > 4 && kind.compare(kind.size() - 4, 4, "List") == 0)) {
    if (!obj.contains("items") || !obj["items"].is_array()) return Error{where + ": field items: expected a list"};
    // Typed lists (PodList) may omit each item's kind.
    std::string item_kind = kind == "List" ? "" : kind.substr(0, kind.size() - 4);
    for (size_t i = 0; i < obj["items"].size(); ++i) {
      nlohmann::json item = obj["items"][i];
      if (item.is_object() && !item.contains("kind") && !item_kind.empty()) item["kind"] = item_kind;
      if (Outcome ok = AddObject(item, where + ": items[" + std::to_string(i) + "]", out); !ok) return ok;
    }
    return Outcome::Ok();
  }
  if (kind == "Node") {
    auto n = NodeFromJson(obj, where);
    if (!n.ok()) return n.error();
    out->nodes.push_back(std::move(*n));
  } else if (kind == "Pod") {
    auto p = PodFromJson(obj, where);
    if (!p.ok()) return p.error();
    out->pods.push_back(std::move(*p));
  } else if (kind == "Namespace") {
    auto n = NamespaceFromJson(obj, where);
    if (!n.ok()) return n.error();
    out->namespaces.push_back(std::move(*n));
  } else if (kind == "PriorityClass") {
    auto p = PriorityClassFromJson(obj, where);
    if (!p.ok()) return p.error();
    out->priority_classes.push_back(std::move(*p));
  } else if (kind == "PodDisruptionBudget") {
    auto p = PdbFromJson(obj, where);
    if (!p.ok()) return p.error();
    out->pdbs.push_back(std::move(*p));
  } else if (kind.empty()) {
    return Error{where + ": field kind: missing"};
  } else {
    ++out->skipped;
  }
  return Outcome::Ok();
}

}  // namespace

Result<Manifests> LoadManifests(const std::vector<std::string>& paths) {
  auto listed = ListDocumentFiles(paths);
  if (!listed.ok()) return listed.error();
  const std::vector<std::string>& files = *listed;
  Manifests out;
  for (const std::string& file : files) {
    auto docs = ReadDocumentsFile(file);
    if (!docs.ok()) return docs.error();
    for (const Document& doc : *docs) {
      std::string where = file + ": line " + std::to_string(doc.line);
      if (doc.json.is_array()) {
        for (size_t i = 0; i < doc.json.size(); ++i) {
          if (Outcome ok = AddObject(doc.json[i], where + ": [" + std::to_string(i) + "]", &out); !ok) return ok.error();
        }
      } else if (Outcome ok = AddObject(doc.json, where, &out); !ok) {
        return ok.error();
      }
    }
  }
  return out;
}

}  // namespace schedcheck::trace
