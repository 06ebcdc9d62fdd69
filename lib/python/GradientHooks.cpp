//===--- GradientHooks.cpp - Defs the file registers as gradient hooks ----===//

#include "lib/python/GradientHooks.h"
#include "lib/model/GradientHooks.h"
#include "lib/python/HelperIndex.h"

namespace streamsafe::py {

namespace {

/// The last name of a call's callee (`p.register_hook`: register_hook).
llvm::StringRef calleeName(TSNode Call, const SourceFile &F) {
  TSNode Fn = field(Call, "function");
  if (is(Fn, "attribute"))
    return F.text(field(Fn, "attribute"));
  return is(Fn, "identifier") ? F.text(Fn) : llvm::StringRef();
}

/// Whether \p Arg hands the def named \p Name (a method when \p Method)
/// as a callable: `self.name`, `name`, or functools.partial of either.
bool handsDef(TSNode Arg, llvm::StringRef Name, bool Method,
              const SourceFile &F) {
  Arg = unparen(is(Arg, "keyword_argument") ? field(Arg, "value") : Arg);
  if (is(Arg, "call") && calleeName(Arg, F) == "partial") {
    std::vector<TSNode> Args = children(field(Arg, "arguments"));
    return !Args.empty() && handsDef(Args[0], Name, Method, F);
  }
  if (Method)
    return is(Arg, "attribute") &&
           is(unparen(field(Arg, "object")), "identifier") &&
           F.text(field(Arg, "attribute")) == Name;
  return is(Arg, "identifier") && F.text(Arg) == Name;
}

/// Whether code under \p Where registers the def as a gradient hook.
bool registered(TSNode Where, llvm::StringRef Name, bool Method,
                const SourceFile &F) {
  bool Found = false;
  everyNode(Where, [&](TSNode X) {
    if (Found || !is(X, "call") ||
        !gradient_hooks::registersGradientHook(calleeName(X, F)))
      return;
    for (TSNode A : children(field(X, "arguments")))
      Found |= handsDef(A, Name, Method, F);
  });
  return Found;
}

} // namespace

bool keepsGradient(TSNode At, llvm::StringRef Gradient, const SourceFile &F) {
  if (!is(At, "return_statement"))
    return true; // the end of the body, or a raise
  std::vector<TSNode> C = children(At);
  TSNode V = C.empty() ? TSNode{} : unparen(C[0]);
  return gradient_hooks::atReturn(!C.empty(), is(V, "none"),
                                  is(V, "identifier") &&
                                      F.text(V) == Gradient) ==
         gradient_hooks::AtReturn::Kept;
}

TSNode droppedGradientParameter(TSNode Def, const SourceFile &F) {
  TSNode Class = classOf(Def);
  bool Method = !ts_node_is_null(Class) && !staticMethod(Def, F);
  std::vector<std::string> Names = paramNames(Def, F);
  size_t Own = Method ? 1 : 0;
  if (Names.size() <= Own)
    return {};
  llvm::StringRef Name = F.text(field(Def, "name"));
  TSNode Where = Method ? Class : F.root();
  if (!registered(Where, Name, Method, F))
    return {};
  size_t K =
      Own + gradient_hooks::gradientParameter(unsigned(Names.size() - Own));
  std::string Gradient = Names[K];
  bool Drops = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    Drops |= is(X, "return_statement") && !keepsGradient(X, Gradient, F);
  });
  if (!Drops)
    return {};
  // The parameter's identifier node, as Scope::Params holds it.
  size_t Seen = 0;
  for (TSNode P : children(field(Def, "parameters"))) {
    TSNode N = P;
    if (is(P, "typed_parameter"))
      N = children(P).empty() ? P : children(P)[0];
    else if (is(P, "default_parameter") || is(P, "typed_default_parameter"))
      N = field(P, "name");
    if (!is(N, "identifier"))
      break;
    if (Seen++ == K)
      return N;
  }
  return {};
}

} // namespace streamsafe::py
