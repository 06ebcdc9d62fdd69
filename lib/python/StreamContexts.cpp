//===--- StreamContexts.cpp - Calls that enter a stream for a with-block --===//

#include "lib/python/StreamContexts.h"
#include "lib/python/Api.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

namespace {

/// Whether the call \p Call is a with-item's value (`with f(x):`, `with
/// f(x) as y:`), with one argument.
bool withItemCall(TSNode Call) {
  TSNode Up = ts_node_parent(Call);
  if (is(Up, "as_pattern"))
    Up = ts_node_parent(Up);
  return is(Up, "with_item") && children(field(Call, "arguments")).size() == 1;
}

/// Whether every use of the parameter \p Name in \p Def's own code calls
/// it as a with-item with one argument (and nothing binds it again).
bool onlyEnteredWithOneArgument(TSNode Def, llvm::StringRef Name,
                                const SourceFile &F) {
  bool Entered = false, Other = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (!is(X, "identifier") || F.text(X) != Name)
      return;
    TSNode Up = ts_node_parent(X);
    // `obj.name`, `f(name=...)`: another name.
    if ((is(Up, "attribute") && ts_node_eq(field(Up, "attribute"), X)) ||
        (is(Up, "keyword_argument") && ts_node_eq(field(Up, "name"), X)))
      return;
    if (is(Up, "call") && ts_node_eq(field(Up, "function"), X) &&
        withItemCall(Up))
      Entered = true;
    else
      Other = true;
  });
  return Entered && !Other;
}

} // namespace

bool streamContextCall(TSNode Call, const SourceFile &F, const Imports &I) {
  Call = unparen(Call);
  if (!is(Call, "call"))
    return false;
  TSNode Fn = unparen(field(Call, "function"));
  if (apiOf(I.qualify(Fn)) == PyApi::StreamContext)
    return true;
  if (!is(Fn, "identifier") || !withItemCall(Call))
    return false;
  TSNode Def = enclosingDef(Call);
  return !ts_node_is_null(Def) &&
         llvm::is_contained(paramNames(Def, F), F.text(Fn).str()) &&
         onlyEnteredWithOneArgument(Def, F.text(Fn), F);
}

bool switchesNothing(TSNode Call, const Imports &I) {
  Call = unparen(Call);
  if (!is(Call, "call"))
    return false;
  std::string Q = I.qualify(field(Call, "function"));
  if (Q == "contextlib.nullcontext")
    return true;
  if (apiOf(Q) != PyApi::StreamContext)
    return false;
  std::vector<TSNode> Args = children(field(Call, "arguments"));
  if (Args.empty())
    return true;
  TSNode Arg = unparen(Args[0]);
  if (is(Arg, "keyword_argument"))
    Arg = unparen(field(Arg, "value"));
  return Args.size() == 1 && is(Arg, "none");
}

bool streamContextValue(TSNode N, const SourceFile &F, const Imports &I) {
  N = unparen(N);
  if (is(N, "conditional_expression")) {
    std::vector<TSNode> Arms = children(N);
    if (Arms.size() != 3)
      return false;
    auto Either = [&](TSNode A) {
      return streamContextValue(A, F, I) || switchesNothing(A, I);
    };
    return Either(Arms[0]) && Either(Arms[2]) &&
           (streamContextValue(Arms[0], F, I) ||
            streamContextValue(Arms[2], F, I));
  }
  return is(N, "call") &&
         apiOf(I.qualify(field(N, "function"))) == PyApi::StreamContext &&
         !switchesNothing(N, I);
}

} // namespace streamsafe::py
