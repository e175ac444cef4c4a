#include "cli/report.hpp"

#include "tilespace/database.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "cli/common.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::cli {

using nlohmann::json;

json result_json(const State& s, const State& goal, const std::string& algorithm, const std::string& heuristic,
                 const search::Result& r) {
  json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(goal)},
         {"algorithm", algorithm}, {"solvable", !r.unreachable}, {"moves", r.moves},
         {"expanded", r.expanded}, {"generated", r.generated}, {"peak_open", r.peak_open},
         {"closed", r.closed}, {"peak_bytes", r.peak_bytes}, {"seconds", r.seconds}};
  j["heuristic"] = heuristic.empty() ? json(nullptr) : json(heuristic);
  j["length"] = r.solved ? json(r.length()) : json(nullptr);
  j["stopped"] = r.stopped == search::Stop::None ? json(nullptr) : json(search::stop_name(r.stopped));
  return j;
}

json path_json(const search::Result& r) {
  json pj = json::array();
  for (const auto& st : r.path) pj.push_back(tiles_json(st));
  return pj;
}

json solve_json(const State& s, const State& goal, const std::string& algorithm, const std::string& heuristic,
                const search::Result& r, const DistanceTable* t) {
  json j = result_json(s, goal, algorithm, heuristic, r);
  j["path"] = path_json(r);
  j["optimal_length"] = t && solvable(s, goal) ? json(t->distance(s, goal).value_or(-1)) : json(nullptr);
  if (t && !r.path.empty()) {
    json rem = json::array();
    for (const auto& st : r.path) rem.push_back(t->distance(st, goal).value_or(-1));
    j["remaining"] = std::move(rem);
  }
  return j;
}

double mean_depth(const DistanceTable& t) {
  const auto& h = t.histogram();
  double sum = 0;
  for (std::size_t d = 0; d < h.size(); ++d) sum += static_cast<double>(d) * static_cast<double>(h[d]);
  return sum / static_cast<double>(t.ranker().size());
}

json stats_json(const DistanceTable& t, const State& goal, const std::vector<State>& farthest) {
  const auto& h = t.histogram();
  json far = json::array();
  for (const auto& s : farthest) far.push_back(tiles_json(s));
  return {{"board", goal.board.name()}, {"goal", tiles_json(goal)}, {"states", t.ranker().size()},
          {"radius", t.radius()},       {"histogram", h},           {"mean", mean_depth(t)},
          {"farthest_count", h.back()}, {"farthest", std::move(far)}};
}

void add_trace_json(json& j, const search::Trace& t, const Board& board) {
  const auto& nodes = t.nodes();
  json data = json::array();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    json node{{"id", i}, {"state", tiles_json(State::unpack(board, n.packed))}, {"g", n.g}, {"h", n.h},
              {"f", n.g + n.h}};
    node["parent"] = n.parent == search::Trace::kNone ? json(nullptr) : json(n.parent);
    node["step"] = n.expansion == search::Trace::kNone ? json(nullptr) : json(n.expansion);
    if (n.dup) node["dup"] = true;
    data.push_back(std::move(node));
  }
  // Children by parent, in generation order (counting sort on the parent id).
  std::vector<std::uint32_t> first(nodes.size() + 1, 0), kids(nodes.size());
  for (const auto& n : nodes)
    if (n.parent != search::Trace::kNone) ++first[n.parent + 1];
  for (std::size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].parent != search::Trace::kNone) kids[fill[nodes[i].parent]++] = static_cast<std::uint32_t>(i);
  json process = json::array();
  for (const auto& e : t.expansions()) {
    json children(std::vector<std::uint32_t>(kids.begin() + first[e.parent], kids.begin() + first[e.parent + 1]));
    process.push_back({{"parent", e.parent}, {"children", std::move(children)}, {"iteration", e.iteration}});
  }
  j["data"] = std::move(data);
  j["process"] = std::move(process);
  j["solution"] = t.solution();
  j["trace_truncated"] = t.truncated();
  j["trace_limit"] = t.limit();
}

void write_file_atomic(const std::string& file, const std::string& text) {
  // An output file goes into a folder that exists: a mistyped folder is reported, not created.
  const std::filesystem::path parent = std::filesystem::path(file).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw DataError(file + ": cannot write: no folder " + parent.string());
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  write_atomically(file, {std::span<const std::uint8_t>(bytes, text.size())});
}

}  // namespace tilespace::cli
