//===--- FileJobs.h - Files checked on several threads, reported in order -===//
//
// streamsafe-py checks the files of a run on `-j N` threads (by default one
// per core): each thread takes the next file not yet taken and keeps its
// own cache of the project's modules (ModuleCache is not shared between
// threads), and the results are handed back in the order of the command
// line as soon as every file before them is done, so the output is the
// same whatever N is.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_FILEJOBS_H
#define STREAMSAFE_TOOLS_PY_FILEJOBS_H

#include "tools/py/CheckedFile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace streamsafe::py {

/// One file's outcome: it could not be read (ReadError), or what
/// checkFile found.
struct FileOutcome {
  std::string ReadError;
  CheckedFile Checked;
};

/// Checks \p Files on \p Jobs threads (each with a stack of \p StackBytes),
/// each as checkFile does with \p Opts (its Modules replaced by the
/// thread's own) and \p CheckArgs, and calls \p Report with each file's
/// outcome in the order of \p Files. Report returns false to stop the run
/// (files not yet reported are then not reported).
void checkFiles(const std::vector<std::string> &Files, unsigned Jobs,
                unsigned StackBytes, const PyOptions &Opts,
                const std::vector<std::string> &CheckArgs,
                llvm::function_ref<bool(size_t, FileOutcome &)> Report);

/// The number of threads `-j` gives by default: one per core the process
/// may run on, and no more than there are files.
unsigned defaultJobs(size_t Files);

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_FILEJOBS_H
