# The man page tilespace(1) and the bash completion script, both generated from the built command
# so that they cannot drift from it: the completion by `tilespace --bash-completion`
# (tools/cli/completion.cpp), the man page by help2man over `tilespace --help` and every
# subcommand's --help (tools/man.sh). Written under the build's share/, laid out as installed.
# tests/docs/ checks both against the command's --help. Included at the end of CMakeLists.txt,
# once the targets (and the tests' enable_testing) exist.
include(GNUInstallDirs)

set(TILESPACE_COMPLETION_DIR ${PROJECT_BINARY_DIR}/share/bash-completion/completions)
set(TILESPACE_COMPLETION ${TILESPACE_COMPLETION_DIR}/tilespace)
# DEPENDS on the target: regenerated whenever the command is relinked. Written to a temporary
# name first, so that a failed run leaves no half script behind.
add_custom_command(OUTPUT ${TILESPACE_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${TILESPACE_COMPLETION_DIR}
  COMMAND $<TARGET_FILE:tilespace_cli> --bash-completion > ${TILESPACE_COMPLETION}.tmp
  COMMAND ${CMAKE_COMMAND} -E rename ${TILESPACE_COMPLETION}.tmp ${TILESPACE_COMPLETION}
  DEPENDS tilespace_cli
  COMMENT "Generating the bash completion script share/bash-completion/completions/tilespace"
  VERBATIM)
set(TILESPACE_DOCS ${TILESPACE_COMPLETION})

find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(TILESPACE_MAN ${PROJECT_BINARY_DIR}/share/man/man1/tilespace.1)
  add_custom_command(OUTPUT ${TILESPACE_MAN}
    COMMAND ${CMAKE_COMMAND} -E env HELP2MAN=${HELP2MAN} TILESPACE_DOCDIR=${CMAKE_INSTALL_DOCDIR}
            bash ${PROJECT_SOURCE_DIR}/tools/man.sh $<TARGET_FILE:tilespace_cli> ${TILESPACE_MAN}
    DEPENDS tilespace_cli ${PROJECT_SOURCE_DIR}/tools/man.sh
    COMMENT "Generating the man page share/man/man1/tilespace.1"
    VERBATIM)
  list(APPEND TILESPACE_DOCS ${TILESPACE_MAN})
else()
  message(WARNING "help2man was not found (Debian: help2man): no man page tilespace(1) is built or installed")
endif()

# `cmake --install` makes both again from the command it has just installed (cmake/install_docs.cmake),
# by the same two generators, so that an install needs nothing built but the command: after
# `tools/dev.sh demo`, which builds only the `tilespace` target, it installs the man page and the
# completion too. tests/install/demo_install_test.sh checks that.
install(CODE "
  set(TILESPACE_INSTALL_BIN \"${CMAKE_INSTALL_BINDIR}\")
  set(TILESPACE_INSTALL_COMPLETIONS \"${CMAKE_INSTALL_DATADIR}/bash-completion/completions\")
  set(TILESPACE_INSTALL_MAN1 \"${CMAKE_INSTALL_MANDIR}/man1\")
  set(TILESPACE_HELP2MAN \"${HELP2MAN}\")
  set(TILESPACE_MAN_SH \"${PROJECT_SOURCE_DIR}/tools/man.sh\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/install_docs.cmake\")
")

# Part of `all` whenever the command is: the fuzz build leaves the command out of `all`
# (tests/fuzz), and generating the documents must not bring it back.
get_target_property(TILESPACE_CLI_EXCLUDED tilespace_cli EXCLUDE_FROM_ALL)
if(TILESPACE_CLI_EXCLUDED)
  add_custom_target(tilespace_docs DEPENDS ${TILESPACE_DOCS})
else()
  add_custom_target(tilespace_docs ALL DEPENDS ${TILESPACE_DOCS})
endif()

# The checks: every subcommand's options are in the man page and offered by the completion.
# Not under the sanitizers, whose test runs are for the library (tests/CMakeLists.txt).
if(TILESPACE_TESTS AND NOT TILESPACE_SANITIZED)
  add_test(NAME bash_completion
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/docs/completion_test.sh
                   $<TARGET_FILE:tilespace_cli> ${TILESPACE_COMPLETION})
  if(HELP2MAN)
    add_test(NAME man_page_covers_help
             COMMAND bash ${PROJECT_SOURCE_DIR}/tests/docs/man_test.sh $<TARGET_FILE:tilespace_cli> ${TILESPACE_MAN})
  endif()
endif()
