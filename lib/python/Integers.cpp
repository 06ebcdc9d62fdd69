//===--- Integers.cpp - Integers the code fixes ---------------------------===//
//
// An index, a slice bound or a loop's stop the analysis can tell: a literal,
// a name that holds one value bound once to a literal, the counter of a
// loop in an iteration lowered on its own (LoopCounters.h), the length of a
// list display never resized (`len(chunk_ids)`), and sums and differences
// of those. Anything else is not known.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"
#include "lib/python/CounterSyntax.h"
#include "lib/python/Scope.h"

namespace streamsafe::py {

std::optional<int64_t> Builder::constantInt(TSNode N) {
  N = unparen(N);
  if (ts_node_is_null(N))
    return std::nullopt;
  if (is(N, "unary_operator")) {
    std::optional<int64_t> V = constantInt(field(N, "argument"));
    llvm::StringRef Op = F.text(N).ltrim().take_front(1);
    if (V && Op == "-")
      return -*V;
    return Op == "+" ? V : std::nullopt;
  }
  if (is(N, "binary_operator")) {
    llvm::StringRef Op = F.text(field(N, "operator"));
    if (Op != "+" && Op != "-")
      return std::nullopt;
    std::optional<int64_t> L = constantInt(field(N, "left"));
    std::optional<int64_t> R = L ? constantInt(field(N, "right")) : L;
    if (!R || *L > INT32_MAX || *L < INT32_MIN || *R > INT32_MAX ||
        *R < INT32_MIN)
      return std::nullopt;
    return Op == "+" ? *L + *R : *L - *R;
  }
  if (is(N, "identifier")) {
    if (const CounterLoop *L = St->Counters.loop(F.text(N).str()))
      return L->Known;
    // A name that holds one value while the def runs, bound once to a
    // literal (`NUM_CHUNKS = 2` of the module, or of the def).
    const Scope *Owner = St->S->owner(F.text(N));
    if (!Owner || !stableName(N))
      return std::nullopt;
    auto B = Owner->Bindings.find(F.text(N));
    if (B == Owner->Bindings.end() || B->second.size() != 1 ||
        ts_node_is_null(B->second[0]) || !is(unparen(B->second[0]), "integer"))
      return std::nullopt;
    return constantInt(B->second[0]);
  }
  if (is(N, "call") && F.text(field(N, "function")) == "len") {
    std::vector<TSNode> A = children(field(N, "arguments"));
    if (A.size() != 1 || !is(unparen(A[0]), "identifier"))
      return std::nullopt;
    return fixedLength(F.text(unparen(A[0])), *St->S, F);
  }
  if (!is(N, "integer"))
    return std::nullopt;
  int64_t V = 0;
  std::string Text = F.text(N).str();
  llvm::erase(Text, '_');
  if (llvm::StringRef(Text).getAsInteger(0, V))
    return std::nullopt;
  return V;
}

} // namespace streamsafe::py
