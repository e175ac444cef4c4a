# `cmake --install build --prefix P`: the command (and tilespace-mpi where built), the library and
# its public headers, a CMake package (find_package(tilespace CONFIG) -> tilespace::tilespace, with
# a version file) and a pkg-config file; the man page and the bash completion are in
# cmake/docs.cmake, the Python module in tools/python/. tests/install/ checks it all from a
# temporary prefix. Every installed path is relative to the prefix, so the packages can move.
include(CMakePackageConfigHelpers)

set(TILESPACE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilespace)

install(TARGETS tilespace EXPORT tilespaceTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tilespace_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The HTTP API's document, which `tilespace serve --help` names (found at run time: cli/terminal.hpp).
install(FILES tools/viewer/API.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
if(TARGET tilespace_mpi)
  install(TARGETS tilespace_mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY include/tilespace DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp"
        PATTERN "engine" EXCLUDE)  # the engines' shared parts (library and tilespace-mpi): not an API
install(FILES ${PROJECT_BINARY_DIR}/include/tilespace/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilespace)

install(EXPORT tilespaceTargets NAMESPACE tilespace:: DESTINATION ${TILESPACE_CMAKE_DIR})
configure_package_config_file(cmake/tilespaceConfig.cmake.in ${PROJECT_BINARY_DIR}/tilespaceConfig.cmake
  INSTALL_DESTINATION ${TILESPACE_CMAKE_DIR})
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tilespaceConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tilespaceConfig.cmake ${PROJECT_BINARY_DIR}/tilespaceConfigVersion.cmake
  DESTINATION ${TILESPACE_CMAKE_DIR})

# pkg-config: the prefix is found from the .pc file's own folder (${pcfiledir}), so it is right
# whatever --prefix the install is given.
set(TILESPACE_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH TILESPACE_PC_TO_PREFIX /${TILESPACE_PC_DIR} /)
string(REGEX REPLACE "/$" "" TILESPACE_PC_TO_PREFIX "${TILESPACE_PC_TO_PREFIX}")
configure_file(cmake/tilespace.pc.in ${PROJECT_BINARY_DIR}/tilespace.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tilespace.pc DESTINATION ${TILESPACE_PC_DIR})
