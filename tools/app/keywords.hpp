// Input errors in the words of the front ends that take named parameters (the HTTP API's query
// parameters, Python's keywords): an option's name with '_' for '-', and the parameter at fault
// with its message, from the library's InputError subjects (errors.hpp) without rewriting them.
#pragma once

#include <string>

#include "tilespace/errors.hpp"

namespace tilespace::app {

// An option's name as a keyword: "max-nodes" -> "max_nodes".
std::string keyword_name(std::string option);

struct KeywordError {
  std::string param;    // the parameter at fault ("start", "max_nodes"; empty when none)
  std::string message;  // "max_nodes: must be ..."
};
KeywordError keyword_error(const InputError& e);

}  // namespace tilespace::app
