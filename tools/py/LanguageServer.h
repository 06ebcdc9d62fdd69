//===--- LanguageServer.h - streamsafe-py --lsp ------------------*- C++
//-*-===//
//
// A Language Server Protocol server over stdio, so that an editor shows
// the findings of the buffer as the user types: initialize, the
// textDocument/didOpen, didChange (full or incremental), didSave and
// didClose notifications, publishDiagnostics with the notes as related
// information, shutdown and exit. Each buffer is checked as the file of
// its path would be on the command line (its .clang-tidy, --checks,
// NOLINT comments), from the editor's text, not the disk's.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_LANGUAGESERVER_H
#define STREAMSAFE_TOOLS_PY_LANGUAGESERVER_H

#include "lib/python/Analysis.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <string>

namespace streamsafe::py {

/// Serves one client on \p In / \p Out until its exit notification or the
/// end of the input; \p Log gets what the protocol has no place for.
/// Returns the exit code: 0 after shutdown and exit, 1 otherwise.
int serveLanguageClient(std::FILE *In, llvm::raw_ostream &Out,
                        llvm::raw_ostream &Log, const PyOptions &Opts,
                        llvm::ArrayRef<std::string> CheckArgs);

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_LANGUAGESERVER_H
