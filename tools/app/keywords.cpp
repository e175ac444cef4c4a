// Input errors in keyword words (keywords.hpp).
#include "app/keywords.hpp"

#include <algorithm>

namespace tilespace::app {

std::string keyword_name(std::string option) {
  std::replace(option.begin(), option.end(), '-', '_');
  return option;
}

KeywordError keyword_error(const InputError& e) {
  using About = InputError::About;
  switch (e.about) {
    case About::start: return {"start", "start: " + e.detail};
    case About::goal: return {"goal", "goal: " + e.detail};
    case About::board: return {"board", "board: " + e.detail};
    case About::option: return {keyword_name(e.name), keyword_name(e.name) + ": " + e.detail};
    default: return {"", e.what()};
  }
}

}  // namespace tilespace::app
