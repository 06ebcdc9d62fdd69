# lit runs the GoogleTest binary built from this directory; each GoogleTest
# test is reported as a lit test (streamsafe-unit :: Suite/Name).
import lit.formats

config.name = "streamsafe-unit"
config.test_format = lit.formats.GoogleTest(".", "unit-tests")
# GoogleTest discovery looks for executables in the source root: point it at
# the build directory, as LLVM's unit-test suites do.
config.test_source_root = config.test_exec_root
