// The example of docs/install.md's "Using the library" (install_test.sh checks that the page shows
// this file from its first #include on): the 8-puzzle's distance table built in memory, one distance,
// and the distribution (a published fact: 181,440 states, radius 31).
#include <tilespace/distance_table.hpp>
#include <tilespace/state.hpp>
#include <tilespace/version.hpp>

#include <cstdio>

int main() {
  using namespace tilespace;
  const Board board(3, 3);
  const State goal = canonical_goal(board, board.cells() - 1);  // 1 2 3 / 4 5 6 / 7 8 _
  const DistanceTable table = DistanceTable::build(board, goal.blank);
  const State start = parse_state("8 6 7 2 5 4 3 0 1");
  std::printf("tilespace %s: %s is %d moves from the goal\n", kVersion, start.to_string().c_str(),
              table.distance(start, goal).value_or(-1));
  std::printf("%llu states, radius %d, %llu at the radius\n",
              static_cast<unsigned long long>(table.ranker().size()), table.radius(),
              static_cast<unsigned long long>(table.histogram().back()));
}
