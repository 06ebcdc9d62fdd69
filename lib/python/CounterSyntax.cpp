//===--- CounterSyntax.cpp - How code tests and indexes a loop counter ---===//
//
// The syntax LoopCounters.cpp reads: a counter loop's `for`, the counter
// plus a constant, parity tests, comparisons, and what the body binds.
//
//===----------------------------------------------------------------------===//

#include "lib/python/CounterSyntax.h"
#include "lib/python/Scope.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
#include <map>

namespace streamsafe::py {

/// Whether \p Body's own code binds \p Name (an assignment, a loop's or
/// `with`'s target, `:=`, `del`).
bool rebinds(TSNode Body, llvm::StringRef Name, const SourceFile &F) {
  bool Found = false;
  // `xs[k] = v` and `o.xs = v` bind neither xs nor k.
  std::function<void(TSNode)> Binds = [&](TSNode Target) {
    Target = unparen(Target);
    if (is(Target, "identifier"))
      Found |= F.text(Target) == Name;
    else if (is(Target, "pattern_list") || is(Target, "tuple_pattern") ||
             is(Target, "list_pattern") || is(Target, "tuple") ||
             is(Target, "list") || is(Target, "expression_list") ||
             is(Target, "list_splat_pattern") || is(Target, "list_splat"))
      for (TSNode C : children(Target))
        Binds(C);
  };
  ownCode(Body, [&](TSNode X) {
    llvm::StringRef T = type(X);
    if (T == "assignment" || T == "augmented_assignment" ||
        T == "for_statement" || T == "for_in_clause")
      Binds(field(X, "left"));
    else if (T == "named_expression")
      Binds(field(X, "name"));
    else if (T == "as_pattern")
      Binds(field(X, "alias"));
    else if (T == "delete_statement")
      for (TSNode C : children(X))
        Binds(C);
  });
  return Found;
}

/// `i`, `i + c`, `i - c`, `c + i` with an integer literal c: the name and c.
std::optional<std::pair<std::string, int>> counterOffset(TSNode N,
                                                         const SourceFile &F) {
  N = unparen(N);
  if (is(N, "identifier"))
    return std::pair{F.text(N).str(), 0};
  if (!is(N, "binary_operator"))
    return std::nullopt;
  TSNode L = unparen(field(N, "left")), R = unparen(field(N, "right"));
  llvm::StringRef Op = F.text(field(N, "operator"));
  auto Int = [&](TSNode X) -> std::optional<int> {
    if (!is(X, "integer"))
      return std::nullopt;
    int V = 0;
    if (F.text(X).getAsInteger(10, V) || V > 1024)
      return std::nullopt;
    return V;
  };
  if (is(L, "identifier") && Int(R) && (Op == "+" || Op == "-"))
    return std::pair{F.text(L).str(), Op == "+" ? *Int(R) : -*Int(R)};
  if (is(R, "identifier") && Int(L) && Op == "+")
    return std::pair{F.text(R).str(), *Int(L)};
  return std::nullopt;
}

/// `(i + c) % 2`: the counter and c.
static std::optional<std::pair<std::string, int>>
parityOf(TSNode N, const SourceFile &F) {
  N = unparen(N);
  if (!is(N, "binary_operator") || F.text(field(N, "operator")) != "%" ||
      F.text(unparen(field(N, "right"))) != "2")
    return std::nullopt;
  return counterOffset(field(N, "left"), F);
}

std::optional<ParityCond> parityCond(TSNode Cond, const SourceFile &F) {
  Cond = unparen(Cond);
  bool Opposite = false;
  if (is(Cond, "comparison_operator")) {
    std::vector<TSNode> Operands = children(Cond);
    if (Operands.size() != 2)
      return std::nullopt;
    std::string Op = operatorBetween(Cond, Operands[0], Operands[1], F);
    llvm::StringRef K = F.text(unparen(Operands[1]));
    if ((Op != "==" && Op != "!=") || (K != "0" && K != "1"))
      return std::nullopt;
    Opposite = (Op == "==") != (K == "1");
    Cond = unparen(Operands[0]);
  }
  auto P = parityOf(Cond, F);
  if (!P)
    return std::nullopt;
  // `(i + c) % 2` is 1 when i is odd and c even, or i even and c odd.
  return ParityCond{P->first, (P->second % 2 == 0) != Opposite};
}

/// An integer literal.
std::optional<int64_t> literalInt(TSNode N, const SourceFile &F) {
  N = unparen(N);
  int64_t V = 0;
  if (!is(N, "integer") || F.text(N).getAsInteger(10, V))
    return std::nullopt;
  return V;
}

/// `x + k`, `x - k` of an integer literal k: x as written and k; else \p N
/// as written and 0.
std::pair<std::string, int64_t> splitOffset(TSNode N, const SourceFile &F) {
  N = unparen(N);
  if (is(N, "binary_operator")) {
    llvm::StringRef Op = F.text(field(N, "operator"));
    if (auto K = literalInt(field(N, "right"), F);
        K && (Op == "+" || Op == "-"))
      return {F.text(unparen(field(N, "left"))).str(), Op == "+" ? *K : -*K};
  }
  return {F.text(N).str(), 0};
}

std::optional<Compare> compareOf(TSNode Cond, const SourceFile &F,
                                 bool NameOnRight) {
  Cond = unparen(Cond);
  if (!is(Cond, "comparison_operator"))
    return std::nullopt;
  std::vector<TSNode> Operands = children(Cond);
  if (Operands.size() != 2)
    return std::nullopt;
  std::string Op = operatorBetween(Cond, Operands[0], Operands[1], F);
  TSNode Name = unparen(Operands[NameOnRight ? 1 : 0]);
  if (!is(Name, "identifier"))
    return std::nullopt;
  if (NameOnRight) {
    static const std::map<std::string, std::string> Mirror = {
        {"<", ">"},   {">", "<"},   {"<=", ">="},
        {">=", "<="}, {"==", "=="}, {"!=", "!="}};
    auto It = Mirror.find(Op);
    if (It == Mirror.end())
      return std::nullopt;
    Op = It->second;
  }
  if (Op != "<" && Op != ">" && Op != "<=" && Op != ">=" && Op != "==" &&
      Op != "!=")
    return std::nullopt;
  return Compare{F.text(Name).str(), Op, Operands[NameOnRight ? 0 : 1]};
}

/// `V OP K` of two integers.
bool holds(int64_t V, const std::string &Op, int64_t K) {
  return Op == "<"    ? V < K
         : Op == ">"  ? V > K
         : Op == "<=" ? V <= K
         : Op == ">=" ? V >= K
         : Op == "==" ? V == K
                      : V != K;
}

/// Whether `V OP K` is decided for every V >= \p AtLeast.
std::optional<bool> holdsFrom(int64_t AtLeast, const std::string &Op,
                              int64_t K) {
  if (AtLeast > K)
    return Op == ">" || Op == ">=" || Op == "!=";
  if (AtLeast == K && (Op == ">=" || Op == "<"))
    return Op == ">=";
  return std::nullopt;
}

/// The counter of `for i in range(n)` or `range(a, b)`.
TSNode counterOf(TSNode For, const Scope &S, const SourceFile &F) {
  TSNode Left = unparen(field(For, "left"));
  TSNode Right = unparen(field(For, "right"));
  if (!is(Left, "identifier") || !is(Right, "call") ||
      !is(field(Right, "function"), "identifier") ||
      F.text(field(Right, "function")) != "range" || S.owner("range"))
    return {};
  std::vector<TSNode> Args = children(field(Right, "arguments"));
  bool Plain = llvm::none_of(Args, [](TSNode A) {
    return is(A, "keyword_argument") || is(A, "list_splat") ||
           is(A, "dictionary_splat");
  });
  if (!Plain || Args.empty() || Args.size() > 2 ||
      rebinds(field(For, "body"), F.text(Left), F))
    return {};
  return Left;
}

/// Whether \p Subscript is written by an assignment (`xs[i] = v`, `xs[i],
/// y = t`).
bool assigned(TSNode Subscript) {
  TSNode P = ts_node_parent(Subscript);
  if (is(P, "pattern_list") || is(P, "tuple_pattern") ||
      is(P, "list_pattern")) {
    Subscript = P;
    P = ts_node_parent(P);
  }
  return is(P, "assignment") && ts_node_eq(field(P, "left"), Subscript);
}

std::optional<int64_t> fixedLength(llvm::StringRef Name, const Scope &S,
                                   const SourceFile &F) {
  if (S.owner(Name) != &S)
    return std::nullopt;
  auto B = S.Bindings.find(Name);
  if (B == S.Bindings.end() || B->second.size() != 1 ||
      ts_node_is_null(B->second[0]))
    return std::nullopt;
  TSNode Display = unparen(B->second[0]);
  if (!is(Display, "list") && !is(Display, "tuple"))
    return std::nullopt;
  std::vector<TSNode> Items = children(Display);
  if (llvm::any_of(Items, [](TSNode X) {
        return is(X, "list_splat") || is(X, "starred_expression");
      }))
    return std::nullopt;
  // Every other use reads it: an element, or its length.
  bool Fixed = true;
  TSNode Body = S.K == Scope::Module ? S.Node : field(S.Node, "body");
  ownCode(Body, [&](TSNode X) {
    if (!Fixed || !is(X, "identifier") || F.text(X) != Name)
      return;
    TSNode P = ts_node_parent(X);
    if (is(P, "assignment") && ts_node_eq(field(P, "left"), X) &&
        ts_node_eq(unparen(field(P, "right")), Display))
      return;
    if (is(P, "subscript") && ts_node_eq(field(P, "value"), X) &&
        !is(ts_node_parent(P), "delete_statement"))
      return;
    if (is(P, "argument_list") && children(P).size() == 1) {
      TSNode Call = ts_node_parent(P);
      if (is(Call, "call") && F.text(field(Call, "function")) == "len")
        return;
    }
    Fixed = false;
  });
  if (!Fixed)
    return std::nullopt;
  return int64_t(Items.size());
}

} // namespace streamsafe::py
