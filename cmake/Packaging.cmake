# Installation and the Debian package (scripts/package.sh; README "Install
# the Debian package"). `cmake --install` and CPack use these rules:
#
#   bin/streamsafe, bin/streamsafe-ci     the driver and the CI gate
#   bin/streamsafe-py                     the Python front end (tools/py)
#   lib/<multiarch>/streamsafe/libStreamSafe.so
#                                         the clang-tidy-22 plugin
#   share/streamsafe/python, .../docs/checks
#                                         streamsafe-ci's package and the
#                                         check pages its SARIF help uses
#                                         (tools/CMakeLists.txt)
#   share/streamsafe/pre-commit-hooks.yaml
#   share/doc/streamsafe/                 README, docs/, copyright, changelog
#   share/man/man1/*.1.gz                 from --help (help2man), when
#                                         scripts/package.sh made them
#
# The installed driver has no RUNPATH: it finds libclang-cpp.so.22.1 and
# libLLVM.so.22.1 where Debian's libclang-cpp22 and libllvm22 put them.
# streamsafe-py has tree-sitter-python's parser compiled in and links
# tree-sitter's runtime, zlib and LLVM's Support statically: at run time it
# needs only the C and C++ runtimes (tools/py/CMakeLists.txt), as in the
# wheel (scripts/wheel.sh).

if(CMAKE_LIBRARY_ARCHITECTURE)
  set(STREAMSAFE_PLUGIN_DIR lib/${CMAKE_LIBRARY_ARCHITECTURE}/streamsafe)
else()
  set(STREAMSAFE_PLUGIN_DIR lib/streamsafe)
endif()
install(TARGETS streamsafe RUNTIME DESTINATION bin)
install(TARGETS StreamSafe LIBRARY DESTINATION ${STREAMSAFE_PLUGIN_DIR})
install(FILES .pre-commit-hooks.yaml DESTINATION share/streamsafe
  RENAME pre-commit-hooks.yaml)
install(FILES README.md DESTINATION share/doc/streamsafe)
install(DIRECTORY docs/ DESTINATION share/doc/streamsafe/docs
  FILES_MATCHING PATTERN "*.md")
install(FILES packaging/copyright DESTINATION share/doc/streamsafe)
# Made by scripts/package.sh (they need a built driver and help2man).
install(FILES ${CMAKE_BINARY_DIR}/package/changelog.gz
  DESTINATION share/doc/streamsafe OPTIONAL)
install(DIRECTORY ${CMAKE_BINARY_DIR}/package/man/
  DESTINATION share/man/man1 OPTIONAL FILES_MATCHING PATTERN "*.1.gz")

# CPack: streamsafe_<version>_<arch>.deb. scripts/package.sh sets the
# dependencies (STREAMSAFE_DEB_DEPENDS), read from the libraries the driver
# links and the packages that hold them.
set(STREAMSAFE_DEB_DEPENDS "" CACHE STRING
  "Depends: of the Debian package (scripts/package.sh computes it)")
set(STREAMSAFE_DEB_MAINTAINER
  "StreamSafe maintainers <streamsafe@users.noreply.github.com>" CACHE STRING
  "Maintainer: of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME streamsafe)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${STREAMSAFE_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/streamsafe/streamsafe")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${STREAMSAFE_DEB_DEPENDS}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-${LLVM_VERSION_MAJOR}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "static checks for CUDA stream-safety bugs in LibTorch C++ and PyTorch code")
# The extended description; CPack puts the summary line before it and indents
# it (an empty line becomes the " ." paragraph separator).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "StreamSafe finds CUDA stream-safety bugs in C++ code that uses LibTorch
(ATen/c10) and the CUDA runtime, and in PyTorch Python code, before the
code runs on a GPU: kernels launched on the legacy default stream,
tensors used on a side stream without a wait, tensors that die without
record_stream, current-stream assumptions that break across threads.

This package contains streamsafe, a clang-tidy with the streamsafe-*
checks built in; libStreamSafe.so, a plugin for clang-tidy-${LLVM_VERSION_MAJOR};
streamsafe-py, the same checks for PyTorch Python code; streamsafe-ci, a
CI gate over compile_commands.json and Python files with SARIF output,
baselines and a result cache; and pre-commit hook definitions.")
include(CPack)
