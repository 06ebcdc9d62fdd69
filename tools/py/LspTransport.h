//===--- LspTransport.h - JSON-RPC messages over a byte stream --*- C++ -*-===//
//
// The base protocol of the Language Server Protocol: each message is a
// JSON body after a "Content-Length: N" header (other headers are
// ignored) and an empty line, all lines ending in \r\n.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_LSPTRANSPORT_H
#define STREAMSAFE_TOOLS_PY_LSPTRANSPORT_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <optional>
#include <string>

namespace streamsafe::py {

class LspTransport {
public:
  LspTransport(std::FILE *In, llvm::raw_ostream &Out) : In(In), Out(Out) {}

  /// The next message's body; none at the end of the input or when the
  /// framing is broken (then \p Error says why: the stream cannot be
  /// resynchronised).
  std::optional<std::string> read(std::string &Error);
  void write(const llvm::json::Value &Message);

private:
  std::FILE *In;
  llvm::raw_ostream &Out;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_LSPTRANSPORT_H
