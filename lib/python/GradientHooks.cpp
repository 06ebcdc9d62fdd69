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

/// The def \p Arg hands as a callable: `x.name` or `name`, or
/// functools.partial of either.
void addHanded(TSNode Arg, RegisteredHooks &Out, const SourceFile &F) {
  Arg = unparen(is(Arg, "keyword_argument") ? field(Arg, "value") : Arg);
  if (is(Arg, "call") && calleeName(Arg, F) == "partial") {
    std::vector<TSNode> Args = children(field(Arg, "arguments"));
    if (!Args.empty())
      addHanded(Args[0], Out, F);
  } else if (is(Arg, "attribute") &&
             is(unparen(field(Arg, "object")), "identifier")) {
    Out.Methods.insert(F.text(field(Arg, "attribute")));
  } else if (is(Arg, "identifier")) {
    Out.Functions.insert(F.text(Arg));
  }
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

RegisteredHooks registeredHooks(const SourceFile &F) {
  RegisteredHooks Out;
  everyNode(F.root(), [&](TSNode X) {
    if (is(X, "call") &&
        gradient_hooks::registersGradientHook(calleeName(X, F)))
      for (TSNode A : children(field(X, "arguments")))
        addHanded(A, Out, F);
  });
  return Out;
}

std::string droppedGradientParameter(TSNode Def, const SourceFile &F,
                                     const RegisteredHooks &Registered) {
  TSNode Class = classOf(Def);
  bool Method = !ts_node_is_null(Class) && !staticMethod(Def, F);
  llvm::StringRef Name = F.text(field(Def, "name"));
  if (!(Method ? Registered.Methods : Registered.Functions).contains(Name))
    return "";
  std::vector<std::string> Names = paramNames(Def, F);
  size_t Own = Method ? 1 : 0;
  if (Names.size() <= Own)
    return "";
  size_t K =
      Own + gradient_hooks::gradientParameter(unsigned(Names.size() - Own));
  std::string Gradient = Names[K];
  bool Drops = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    Drops |= is(X, "return_statement") && !keepsGradient(X, Gradient, F);
  });
  if (!Drops)
    return "";
  return Gradient;
}

} // namespace streamsafe::py
