// `tilespace stats`: a table's histogram, radius, mean and farthest states; with --all-goals,
// those of every blank class and the diameter over every goal.
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/terminal.hpp"
#include "cli/messages.hpp"
#include "app/report.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/query.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/symmetry.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

// The states at the radius: the first kShown, and how many more (two-bit tables list them only
// when there are at most kFarthestKept).
void print_farthest(const Messages& m, const std::vector<State>& states_there, std::uint64_t count) {
  constexpr std::size_t kShown = 20;
  for (std::size_t i = 0; i < states_there.size() && i < kShown; ++i)
    std::printf("  %s\n", states_there[i].to_string().c_str());
  if (states_there.empty() && count > 0) {
    std::printf(m.zh() ? "  （两位表或一位表只在不超过 %zu 个时列出）\n"
                       : "  (a two-bit or one-bit table lists them only when there are at most %zu)\n",
                kFarthestKept);
  } else if (count > kShown) {
    std::printf(m.zh() ? "  ……另有 %llu 个（--json 最多列出 %zu 个）\n" : "  ... and %llu more (--json lists up to %zu)\n",
                static_cast<unsigned long long>(count - kShown), kFarthestListed);
  }
}

}  // namespace

void print_distribution(const std::string& lang, const DistributionText& d) {
  const Messages m(lang);
  auto line = [&](const char* en, const std::string& value) {  // a label padded to 8 columns (display width)
    std::printf("%s%s\n", pad(m.get(en) + " ", 8, false).c_str(), value.c_str());
  };
  auto fixed = [](double x, int digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return std::string(buf);
  };
  const auto& h = d.histogram;
  line("board", d.goal.board.name());
  line("goal", d.goal.to_string());
  line("states", std::to_string(d.states));
  line("radius", std::to_string(h.size() - 1));
  if (d.mean) line("mean", fixed(*d.mean, 4));
  if (d.seconds) line("seconds", fixed(*d.seconds, 2));
  if (d.metric == Metric::multi) line("metric", m.get("multi-tile"));
  std::printf("\n%s  %s\n", pad(m.get("depth"), 5, true).c_str(), m.get("states").c_str());
  for (std::size_t k = 0; k < h.size(); ++k) std::printf("%5zu  %llu\n", k, static_cast<unsigned long long>(h[k]));
  std::printf("\n%s (%llu):\n", m.get("states at the radius").c_str(), static_cast<unsigned long long>(h.back()));
  print_farthest(m, d.farthest, h.back());
}

int cmd_stats(Common& c, bool all_goals) {
  Problem p = read_problem(c, std::nullopt);
  require_table_metric(c, p.goal.board);
  TableStore store = make_store(c);
  const Board& b = p.goal.board;
  const GoalTable& t = store.goal(b, p.goal.blank);
  const auto& h = t.histogram();
  const std::uint64_t states = t.states();
  const auto far = t.farthest(p.goal, kFarthestListed);

  // --all-goals: one table per blank class answers every goal (symmetry.hpp); each class is shown
  // for the canonical goal with the blank on its representative. The longest optimal solution
  // between any two states (the diameter of the state graph) is the largest radius of a class.
  struct Class {
    std::vector<int> cells;
    State goal;
    const GoalTable* table;
    std::vector<State> far;
  };
  std::vector<Class> classes;
  int longest = -1;
  json per_goal = json::array(), per_class = json::array();
  if (all_goals) {
    std::vector<int> radius_of(b.cells()), count_of(b.cells());
    for (auto& cells : blank_classes(b)) {
      const State goal = canonical_goal(b, cells.front());
      const GoalTable& g = store.goal(b, cells.front());
      longest = std::max(longest, g.radius());
      for (const int cell : cells) radius_of[cell] = g.radius();
      classes.push_back({std::move(cells), goal, &g, g.farthest(goal, kFarthestListed)});
    }
    for (const Class& k : classes) {
      json j = stats_json(*k.table, k.goal, k.far);
      j.erase("board");
      j["cells"] = k.cells;
      per_class.push_back(std::move(j));
      for (const int cell : k.cells)
        per_goal.push_back({{"blank", cell}, {"radius", k.table->radius()}, {"farthest_count", k.table->histogram().back()}});
    }
    std::sort(per_goal.begin(), per_goal.end(), [](const json& x, const json& y) { return x["blank"] < y["blank"]; });
  }
  if (c.json) {
    json j = stats_json(t, p.goal, far);
    if (all_goals) {
      j["longest"] = longest;
      j["goals"] = per_goal;
      j["classes"] = per_class;
    }
    std::puts(j.dump().c_str());
    return kExitOk;
  }
  const Messages m(c.lang);
  print_distribution(c.lang, {p.goal, t.table().metric(), states, h, far, mean_depth(t), std::nullopt});
  if (all_goals) {
    // The classes side by side: a column of states per depth each, headed by the class's cells.
    std::printf("\n%s\n", m.get("blank classes (one table serves each):").c_str());
    std::vector<std::string> heads;
    std::size_t rows = 0;
    for (const Class& k : classes) {
      std::string head;
      for (const int cell : k.cells) {
        if (!head.empty()) head += ',';
        head += std::to_string(cell);
      }
      heads.push_back(head);
      rows = std::max(rows, k.table->histogram().size());
      std::printf(m.zh() ? "  空格在 %s：半径 %d，平均 %.4f，半径处 %llu 个状态\n"
                         : "  blank on %s: radius %d, mean %.4f, %llu states at the radius\n",
                  head.c_str(), k.table->radius(), mean_depth(*k.table),
                  static_cast<unsigned long long>(k.table->histogram().back()));
    }
    std::vector<int> width;
    for (std::size_t i = 0; i < classes.size(); ++i) {
      std::size_t w = heads[i].size();
      for (const auto n : classes[i].table->histogram()) w = std::max(w, std::to_string(n).size());
      width.push_back(static_cast<int>(w));
    }
    std::printf("\n%s", pad(m.get("depth"), 5, true).c_str());
    for (std::size_t i = 0; i < classes.size(); ++i) std::printf("  %*s", width[i], heads[i].c_str());
    std::printf("\n");
    for (std::size_t d = 0; d < rows; ++d) {
      std::printf("%5zu", d);
      for (std::size_t i = 0; i < classes.size(); ++i) {
        const auto& hk = classes[i].table->histogram();
        std::printf("  %*llu", width[i], static_cast<unsigned long long>(d < hk.size() ? hk[d] : 0));
      }
      std::printf("\n");
    }
    for (const Class& k : classes) {
      std::printf(m.zh() ? "\n目标 %s 半径处的状态（%llu）：\n" : "\nstates at the radius for the goal %s (%llu):\n",
                  k.goal.to_string().c_str(), static_cast<unsigned long long>(k.table->histogram().back()));
      print_farthest(m, k.far, k.table->histogram().back());
    }
    std::printf("\n%s", m.get("radius by goal blank cell:").c_str());
    for (const auto& g : per_goal) std::printf(" %d", g["radius"].get<int>());
    std::printf("\n%s %d\n", m.get("longest optimal solution between any two states:").c_str(), longest);
  }
  return kExitOk;
}

}  // namespace tilespace::cli
