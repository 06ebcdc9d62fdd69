//===--- CounterSyntax.h - How code tests and indexes a counter -*- C++ -*-===//
//
// Readers of the syntax of counter loops (LoopCounters.cpp): shared by its
// units, knowing nothing of the builder.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_COUNTERSYNTAX_H
#define STREAMSAFE_LIB_PYTHON_COUNTERSYNTAX_H

#include "lib/python/Syntax.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace streamsafe::py {

struct Scope;

/// A test of a counter's parity: `(i + c) % 2`, `== k`, `!= k` (k 0 or
/// 1). Odd: whether the test holds when i is odd.
struct ParityCond {
  std::string Counter;
  bool Odd = true;
};

/// A comparison of a name with something, the name on the left: `i > 1`,
/// `1 < i` (as `i > 1`).
struct Compare {
  std::string Name;
  std::string Op;
  TSNode Other{};
};

/// Whether \p Body's own code binds \p Name (an assignment, a loop's or
/// `with`'s target, `:=`, `del`).
bool rebinds(TSNode Body, llvm::StringRef Name, const SourceFile &F);
/// `i`, `i + c`, `i - c`, `c + i` with an integer literal c: the name and c.
std::optional<std::pair<std::string, int>> counterOffset(TSNode N,
                                                         const SourceFile &F);
/// A test of a counter's parity: `(i + c) % 2`, `== k`, `!= k`.
std::optional<ParityCond> parityCond(TSNode Cond, const SourceFile &F);
/// An integer literal.
std::optional<int64_t> literalInt(TSNode N, const SourceFile &F);
/// `x + k`, `x - k` of an integer literal k: x as written and k; else \p N
/// as written and 0.
std::pair<std::string, int64_t> splitOffset(TSNode N, const SourceFile &F);
/// A comparison of a name with something, the name on the left.
std::optional<Compare> compareOf(TSNode Cond, const SourceFile &F,
                                 bool NameOnRight);
/// `V OP K` of two integers.
bool holds(int64_t V, const std::string &Op, int64_t K);
/// Whether `V OP K` is decided for every V >= \p AtLeast.
std::optional<bool> holdsFrom(int64_t AtLeast, const std::string &Op,
                              int64_t K);
/// The counter of `for i in range(n)` or `range(a, b)` whose body never
/// rebinds it (null: \p For is no counter loop).
TSNode counterOf(TSNode For, const Scope &S, const SourceFile &F);
/// The length of the list or tuple \p Name holds in \p S: bound once to a
/// display of no starred items and otherwise only indexed and measured
/// (`xs[k]`, `len(xs)`); else none.
std::optional<int64_t> fixedLength(llvm::StringRef Name, const Scope &S,
                                   const SourceFile &F);
/// Whether \p Subscript is written by an assignment (`xs[i] = v`, `xs[i],
/// y = t`).
bool assigned(TSNode Subscript);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_COUNTERSYNTAX_H
