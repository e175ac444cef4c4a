// Requests of the HTTP service: the API's words for input errors, and problems from parameters.
#include "cli/http_params.hpp"

namespace tilespace::cli {

// An option's name in the API's words: "max-nodes" -> "max_nodes".
std::string api_name(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// An input error in the API's words: the parameter at fault, and the message about it.
HttpError http_error(const InputError& e) {
  using About = InputError::About;
  switch (e.about) {
    case About::start: return bad("start", "start: " + e.detail);
    case About::goal: return bad("goal", "goal: " + e.detail);
    case About::board: return bad("board", "board: " + e.detail);
    case About::option: return bad(api_name(e.name), api_name(e.name) + ": " + e.detail);
    default: return bad("", e.what());
  }
}

// board, start (if `need_start`) and goal from the parameters, in the one grammar (problem.hpp).
Problem parse_pair(const Params& p, bool need_start) {
  ProblemText t;
  t.board = p.get("board").value_or("");
  if (need_start) {
    const auto s = p.get("start");
    if (!s || s->find_first_not_of(" ,+\t") == std::string::npos) throw bad("start", "start is required");
    t.start = *s;
  }
  if (const auto g = p.get("goal"); g && g->find_first_not_of(" ,+\t") != std::string::npos) t.goal = *g;
  try {
    return parse_problem(t);
  } catch (const InputError& e) {
    throw http_error(e);
  }
}

}  // namespace tilespace::cli
