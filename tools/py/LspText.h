//===--- LspText.h - URIs and positions as the LSP spells them --*- C++ -*-===//
//
// The editor names files by URI (file:///a%20b/c.py) and places by a
// 0-based line and a 0-based column in UTF-16 code units; the analysis
// uses paths and 1-based lines and byte columns.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_LSPTEXT_H
#define STREAMSAFE_TOOLS_PY_LSPTEXT_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <optional>
#include <string>

namespace streamsafe::py {

/// The path of a file: URI, percent-decoded; none for other schemes.
std::optional<std::string> uriToPath(llvm::StringRef Uri);

/// The text of 0-based line \p Line of \p Text, without its end of line.
llvm::StringRef lineOf(llvm::StringRef Text, unsigned Line);

/// The UTF-16 column of 0-based byte column \p Byte of \p Line.
unsigned utf16Column(llvm::StringRef Line, unsigned Byte);

/// The byte offset in \p Text of an LSP position (clamped to the line's
/// end and the text's end, as the protocol asks).
size_t offsetOf(llvm::StringRef Text, unsigned Line, unsigned Utf16Column);

/// The byte length of the identifier or attribute chain at 0-based byte
/// column \p Byte of \p Line (at least 1 where the line goes on), for a
/// diagnostic's range.
unsigned tokenLength(llvm::StringRef Line, unsigned Byte);

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_LSPTEXT_H
