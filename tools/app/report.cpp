#include "app/report.hpp"

#include "tilespace/database.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <vector>

#include "app/common.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::app {

using nlohmann::json;

json result_json(const State& s, const State& goal, const std::string& algorithm, const std::string& heuristic,
                 const search::Result& r) {
  json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(goal)},
         {"algorithm", algorithm}, {"metric", metric_name(r.metric)}, {"solvable", !r.unreachable}, {"moves", r.moves},
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
                const search::Result& r, const GoalTable* t) {
  if (t && t->metric() != r.metric)  // a table of the other metric would give wrong distances
    throw std::logic_error("solve_json: a " + std::string(metric_name(t->metric())) + "-tile table for a " +
                           std::string(metric_name(r.metric)) + "-tile answer");
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

double mean_depth(const GoalTable& t) {
  const auto& h = t.histogram();
  double sum = 0;
  for (std::size_t d = 0; d < h.size(); ++d) sum += static_cast<double>(d) * static_cast<double>(h[d]);
  return sum / static_cast<double>(t.states());
}

json distribution_json(const State& goal, Metric metric, std::uint64_t states, const std::vector<std::uint64_t>& histogram,
                       const std::vector<State>& farthest) {
  json far = json::array();
  for (const auto& s : farthest) far.push_back(tiles_json(s));
  return {{"board", goal.board.name()},
          {"goal", tiles_json(goal)},
          {"states", states},
          {"radius", static_cast<int>(histogram.size()) - 1},
          {"histogram", histogram},
          {"farthest_count", histogram.back()},
          {"farthest", std::move(far)},
          {"metric", metric_name(metric)}};
}

json stats_json(const GoalTable& t, const State& goal, const std::vector<State>& farthest) {
  json j = distribution_json(goal, t.table().metric(), t.states(), t.histogram(), farthest);
  j["mean"] = mean_depth(t);
  return j;
}

namespace {

void put_number(std::string& out, std::uint64_t n) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

void put_id(std::string& out, std::uint32_t id) {
  if (id == search::Trace::kNone) out += "null";
  else put_number(out, id);
}

// The trace's members of the document, by key (the five keys of kTraceKeys).
void put_trace_member(std::string& out, std::string_view key, const search::Trace& t, const Board& board) {
  const auto& nodes = t.nodes();
  if (key == "data") {  // [{dup?, f, g, h, id, parent, state, step}] (the keys sorted, as json's objects)
    out += '[';
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const auto& n = nodes[i];
      if (i) out += ',';
      out += n.dup ? "{\"dup\":true,\"f\":" : "{\"f\":";
      put_number(out, n.g + n.h);
      out += ",\"g\":";
      put_number(out, n.g);
      out += ",\"h\":";
      put_number(out, n.h);
      out += ",\"id\":";
      put_number(out, i);
      out += ",\"parent\":";
      put_id(out, n.parent);
      out += ",\"state\":[";
      const State s = State::unpack(board, n.packed);
      for (int c = 0; c < s.cells(); ++c) {
        if (c) out += ',';
        put_number(out, s.tiles[c]);
      }
      out += "],\"step\":";
      put_id(out, n.expansion);
      out += '}';
    }
    out += ']';
  } else if (key == "process") {  // [{children, iteration, parent}]
    // Children by parent, in generation order (counting sort on the parent id).
    std::vector<std::uint32_t> first(nodes.size() + 1, 0), kids(nodes.size());
    for (const auto& n : nodes)
      if (n.parent != search::Trace::kNone) ++first[n.parent + 1];
    for (std::size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
    std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i].parent != search::Trace::kNone) kids[fill[nodes[i].parent]++] = static_cast<std::uint32_t>(i);
    out += '[';
    bool first_entry = true;
    for (const auto& e : t.expansions()) {
      if (!first_entry) out += ',';
      first_entry = false;
      out += "{\"children\":[";
      for (std::uint32_t k = first[e.parent]; k < first[e.parent + 1]; ++k) {
        if (k != first[e.parent]) out += ',';
        put_number(out, kids[k]);
      }
      out += "],\"iteration\":";
      put_number(out, e.iteration);
      out += ",\"parent\":";
      put_number(out, e.parent);
      out += '}';
    }
    out += ']';
  } else if (key == "solution") {
    out += '[';
    for (std::size_t i = 0; i < t.solution().size(); ++i) {
      if (i) out += ',';
      put_number(out, t.solution()[i]);
    }
    out += ']';
  } else if (key == "trace_limit") {
    put_number(out, t.limit());
  } else {  // trace_truncated
    out += t.truncated() ? "true" : "false";
  }
}

}  // namespace

std::string json_text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string stopped_line(const std::string& option, const std::string& value) {
  return "stopped by --" + option + (value.empty() ? "" : " " + value) + " before a solution was found";
}

std::string solve_document(const json& head, const search::Trace* trace, const Board& board) {
  if (!trace) return json_text(head);
  // Sorted, as nlohmann::json orders an object's keys: the document reads as if the trace had
  // been added to `head` as json values, without the kilobyte or so each node costs as one.
  static constexpr std::array<std::string_view, 5> kTraceKeys{"data", "process", "solution", "trace_limit",
                                                              "trace_truncated"};
  std::string out;
  out.reserve(static_cast<std::size_t>(trace->nodes().size() * search::Trace::document_bytes_per_node(board.cells())) +
              4096);
  out += '{';
  std::size_t next = 0;
  const auto put_key = [&](std::string_view key) {
    if (out.size() > 1) out += ',';
    out += json_text(json(key));
    out += ':';
  };
  const auto put_trace_keys_before = [&](const std::string* bound) {
    for (; next < kTraceKeys.size() && (!bound || kTraceKeys[next] < *bound); ++next) {
      put_key(kTraceKeys[next]);
      put_trace_member(out, kTraceKeys[next], *trace, board);
    }
  };
  for (auto it = head.begin(); it != head.end(); ++it) {
    if (std::ranges::find(kTraceKeys, it.key()) != kTraceKeys.end())
      throw std::logic_error("solve_document: the head has the trace's key " + it.key());
    put_trace_keys_before(&it.key());
    put_key(it.key());
    out += json_text(it.value());
  }
  put_trace_keys_before(nullptr);
  out += '}';
  return out;
}

void require_writable(const std::string& file) {
  // An output file goes into a folder that exists: a mistyped folder is reported, not created.
  const std::filesystem::path parent = std::filesystem::path(file).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw DataError(file + ": cannot write: no folder " + parent.string());
  const auto status = std::filesystem::status(file, ec);
  if (!ec && std::filesystem::is_directory(status)) throw DataError(file + ": cannot write: it is a folder");
  const bool special = !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  // A device is written in place; a file is replaced by renaming a temporary file in its folder.
  const std::string where = special ? file : parent.empty() ? std::string(".") : parent.string();
  if (::access(where.c_str(), W_OK) != 0) throw DataError(file + ": cannot write: " + std::strerror(errno));
}

void remove_stale_output(const std::string& file, const std::string& input) {
  std::error_code ec;
  if (file.empty() || !std::filesystem::is_regular_file(std::filesystem::status(file, ec))) return;
  if (!input.empty() && input != "-" && std::filesystem::equivalent(file, input, ec)) return;
  std::filesystem::remove(file, ec);
}

void write_file_atomic(const std::string& file, const std::string& text) {
  require_writable(file);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  write_atomically(file, {std::span<const std::uint8_t>(bytes, text.size())});
}

}  // namespace tilespace::app
