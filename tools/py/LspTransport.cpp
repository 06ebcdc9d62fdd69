//===--- LspTransport.cpp - JSON-RPC messages over a byte stream ----------===//

#include "tools/py/LspTransport.h"
#include "llvm/ADT/StringRef.h"

namespace streamsafe::py {

/// One header line without its \r\n; none at the end of the input.
static std::optional<std::string> readLine(std::FILE *In) {
  std::string Line;
  for (int C; (C = std::fgetc(In)) != EOF;) {
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return Line;
    }
    Line.push_back(static_cast<char>(C));
    if (Line.size() > 4096)
      return Line; // not a header; the caller reports it
  }
  if (Line.empty())
    return std::nullopt;
  return Line;
}

std::optional<std::string> LspTransport::read(std::string &Error) {
  // Bodies up to 64 MiB: far beyond any source file an editor sends.
  constexpr unsigned long long MaxBody = 64ull << 20;
  std::optional<unsigned long long> Length;
  bool Any = false;
  while (true) {
    std::optional<std::string> Line = readLine(In);
    if (!Line) {
      if (Any)
        Error = "the input ended inside a message's headers";
      return std::nullopt;
    }
    Any = true;
    if (Line->empty())
      break;
    llvm::StringRef Header(*Line);
    auto [Name, Value] = Header.split(':');
    if (Name.trim().equals_insensitive("content-length")) {
      unsigned long long N;
      if (Value.trim().getAsInteger(10, N) || N > MaxBody) {
        Error = "bad Content-Length header '" + Header.str() + "'";
        return std::nullopt;
      }
      Length = N;
    }
  }
  if (!Length) {
    Error = "a message without a Content-Length header";
    return std::nullopt;
  }
  std::string Body(*Length, '\0');
  if (std::fread(Body.data(), 1, *Length, In) != *Length) {
    Error = "the input ended inside a message's body";
    return std::nullopt;
  }
  return Body;
}

void LspTransport::write(const llvm::json::Value &Message) {
  std::string Body;
  llvm::raw_string_ostream OS(Body);
  OS << Message;
  OS.flush();
  Out << "Content-Length: " << Body.size() << "\r\n\r\n" << Body;
  Out.flush();
}

} // namespace streamsafe::py
