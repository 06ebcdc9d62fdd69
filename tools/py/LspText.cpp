//===--- LspText.cpp - URIs and positions as the LSP spells them ----------===//

#include "tools/py/LspText.h"
#include "llvm/ADT/StringExtras.h"

namespace streamsafe::py {

std::optional<std::string> uriToPath(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  Uri.consume_front("localhost");
  std::string Path;
  for (size_t K = 0; K < Uri.size(); ++K) {
    unsigned Hi, Lo;
    if (Uri[K] == '%' && K + 2 < Uri.size() &&
        (Hi = llvm::hexDigitValue(Uri[K + 1])) != ~0U &&
        (Lo = llvm::hexDigitValue(Uri[K + 2])) != ~0U) {
      Path.push_back(static_cast<char>(Hi * 16 + Lo));
      K += 2;
      continue;
    }
    Path.push_back(Uri[K]);
  }
  return Path;
}

// Lines end at "\n", "\r\n" or a lone "\r", as the protocol (and Python)
// says. Where line \p Line begins (npos: there is none).
static size_t lineStart(llvm::StringRef Text, unsigned Line) {
  size_t Begin = 0;
  for (unsigned L = 0; L < Line; ++L) {
    size_t End = Text.find_first_of("\r\n", Begin);
    if (End == llvm::StringRef::npos)
      return llvm::StringRef::npos;
    Begin = End + (Text.substr(End).starts_with("\r\n") ? 2 : 1);
  }
  return Begin;
}

llvm::StringRef lineOf(llvm::StringRef Text, unsigned Line) {
  size_t Begin = lineStart(Text, Line);
  if (Begin == llvm::StringRef::npos)
    return {};
  return Text.substr(Begin).take_until(
      [](char C) { return C == '\n' || C == '\r'; });
}

/// The byte length of the UTF-8 sequence that starts with \p Lead.
static unsigned sequenceLength(unsigned char Lead) {
  if (Lead < 0x80)
    return 1;
  if ((Lead >> 5) == 0x6)
    return 2;
  if ((Lead >> 4) == 0xE)
    return 3;
  if ((Lead >> 3) == 0x1E)
    return 4;
  return 1; // not UTF-8: a byte counts as one unit
}

unsigned utf16Column(llvm::StringRef Line, unsigned Byte) {
  unsigned Units = 0;
  for (size_t K = 0; K < Line.size() && K < Byte;) {
    unsigned N = sequenceLength(static_cast<unsigned char>(Line[K]));
    Units += N == 4 ? 2 : 1; // beyond the BMP: a surrogate pair
    K += N;
  }
  return Units;
}

size_t offsetOf(llvm::StringRef Text, unsigned Line, unsigned Utf16Column) {
  size_t Begin = lineStart(Text, Line);
  if (Begin == llvm::StringRef::npos)
    return Text.size();
  size_t K = Begin;
  for (unsigned Units = 0;
       K < Text.size() && Text[K] != '\n' && Text[K] != '\r';) {
    unsigned N = sequenceLength(static_cast<unsigned char>(Text[K]));
    unsigned U = N == 4 ? 2 : 1;
    if (Units + U > Utf16Column)
      break;
    Units += U;
    K = std::min(Text.size(), K + N);
  }
  return K;
}

unsigned tokenLength(llvm::StringRef Line, unsigned Byte) {
  if (Byte >= Line.size())
    return 0;
  auto Word = [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == '.' ||
           static_cast<unsigned char>(C) >= 0x80;
  };
  unsigned N = 0;
  while (Byte + N < Line.size() && Word(Line[Byte + N]))
    ++N;
  return N ? N : 1;
}

} // namespace streamsafe::py
