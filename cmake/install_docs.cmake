# Run by `cmake --install` (cmake/docs.cmake sets the TILESPACE_* variables first): the bash
# completion and the man page, generated from the command just installed, so that the install needs
# no more than the command built. Each file is written under a temporary name and renamed into place;
# a failure stops the install with the reason. Without help2man the man page is left out, saying so.
set(_root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
set(_bin "${_root}/${TILESPACE_INSTALL_BIN}/tilespace")
if(NOT EXISTS "${_bin}")
  message(FATAL_ERROR "tilespace: ${_bin} is not installed: build the command first (cmake --build build --target tilespace_cli)")
endif()

function(_tilespace_install_generated dir name)  # ARGN: the command that writes the file to stdout
  set(out "${_root}/${dir}/${name}")
  file(MAKE_DIRECTORY "${_root}/${dir}")
  message(STATUS "Installing: ${out}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE "${out}.tmp")
    message(FATAL_ERROR "tilespace: could not generate ${out}: ${err}")
  endif()
  file(RENAME "${out}.tmp" "${out}")
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${out}")
  set(CMAKE_INSTALL_MANIFEST_FILES "${CMAKE_INSTALL_MANIFEST_FILES}" PARENT_SCOPE)
endfunction()

set(_completion "${_root}/${TILESPACE_INSTALL_COMPLETIONS}/tilespace")
_tilespace_install_generated("${TILESPACE_INSTALL_COMPLETIONS}" tilespace
  sh -c "\"$0\" --bash-completion > \"$1\"" "${_bin}" "${_completion}.tmp")

if(TILESPACE_HELP2MAN)
  set(_man "${_root}/${TILESPACE_INSTALL_MAN1}/tilespace.1")
  _tilespace_install_generated("${TILESPACE_INSTALL_MAN1}" tilespace.1
    ${CMAKE_COMMAND} -E env "HELP2MAN=${TILESPACE_HELP2MAN}" bash "${TILESPACE_MAN_SH}" "${_bin}" "${_man}.tmp")
else()
  message(WARNING "tilespace: help2man was not found when the build was configured (Debian: help2man): "
                  "the man page is not installed")
endif()
