//===--- ProcessStreams.cpp - A stream set for the rest of the program ----===//
//
// Most `torch.cuda.set_stream(s)` calls switch the stream for a while and
// must set the previous one back (unrestored-current-stream). Some set the
// stream every later op of the program should run on, on purpose: at the
// module's top level (the program's start-up, which is never judged: the
// module body has no caller), in a constructor that keeps the stream in
// `self` (the engine that hands the stream to TensorRT, or keeps it for a
// graph capture), or in a def that keeps it in a module global. The stream
// is then kept where the rest of the program finds it, and no scope has to
// restore it: the set is a `SetCurrent` for the process, and neither the
// def nor the callers that run it in place are reported.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

bool Builder::setsForProcess(TSNode Arg) const {
  if (!St || !St->S || St->S->K != Scope::Def || ts_node_is_null(Arg))
    return false;
  // Once per def and stream as written: each answer walks the def's body.
  auto Key = std::make_pair(St->S->Node.id, F.text(unparen(Arg)).str());
  auto [It, New] = Memo.ProcessSets.try_emplace(Key, false);
  if (New)
    It->second = setsForProcessUncached(Arg);
  return It->second;
}

bool Builder::setsForProcessUncached(TSNode Arg) const {
  TSNode Def = St->S->Node;
  TSNode Body = field(Def, "body");
  Arg = unparen(Arg);
  // A constructor that keeps the stream in `self`: `self.s = ...` and
  // set_stream(self.s), or `self.s = s` and set_stream(s).
  std::vector<std::string> Params = paramNames(Def, F);
  if (F.text(field(Def, "name")) == "__init__" &&
      !ts_node_is_null(classOf(Def)) && !Params.empty()) {
    auto OfSelf = [&](TSNode N) {
      N = unparen(N);
      return is(N, "attribute") && is(field(N, "object"), "identifier") &&
             F.text(field(N, "object")) == Params[0];
    };
    bool Kept = false;
    ownCode(Body, [&](TSNode X) {
      if (Kept || !is(X, "assignment"))
        return;
      TSNode Left = unparen(field(X, "left")), Right = field(X, "right");
      if (!OfSelf(Left) || ts_node_is_null(Right))
        return;
      Right = unparen(Right);
      if (OfSelf(Arg))
        Kept = F.text(Left) == F.text(Arg);
      else
        Kept = is(Arg, "identifier") && is(Right, "identifier") &&
               F.text(Right) == F.text(Arg);
    });
    if (Kept)
      return true;
  }
  // A def that keeps it in a module global: `global S`, `S = ...`,
  // set_stream(S).
  if (!is(Arg, "identifier"))
    return false;
  bool Global = false, Assigned = false;
  ownCode(Body, [&](TSNode X) {
    if (is(X, "global_statement")) {
      for (TSNode C : children(X))
        Global |= F.text(C) == F.text(Arg);
    } else if (is(X, "assignment")) {
      TSNode Left = unparen(field(X, "left"));
      Assigned |= is(Left, "identifier") && F.text(Left) == F.text(Arg);
    }
  });
  return Global && Assigned;
}

// `set_stream(self.saved)` in a method, where a method of the class saved
// the current stream in `self.saved` (StreamSections.cpp): a restore.
bool Builder::restoresSaved(TSNode Arg) const {
  if (!St || !St->S || St->S->K != Scope::Def || ts_node_is_null(Arg))
    return false;
  Arg = unparen(Arg);
  std::vector<std::string> Params = paramNames(St->S->Node, F);
  if (Params.empty() || !is(Arg, "attribute") ||
      !is(field(Arg, "object"), "identifier") ||
      F.text(field(Arg, "object")) != Params[0])
    return false;
  return X->savedCurrent(classOf(St->S->Node), F.text(field(Arg, "attribute")));
}

lower::LeaveSetEvidence Builder::leaveSetEvidence(const Scope &S) const {
  lower::LeaveSetEvidence E;
  E.StartUp = S.K == Scope::Module;
  E.Lambda = S.K == Scope::Lambda;
  if (S.K != Scope::Def)
    return E;
  llvm::StringRef Name = F.text(field(S.Node, "name"));
  E.GuardMember = !ts_node_is_null(classOf(S.Node)) &&
                  (Name == "__enter__" || Name == "__exit__" ||
                   Name == "__aenter__" || Name == "__aexit__");
  E.ThreadBody = X->threadTarget(S.Node);
  E.OpensSection = X->opensSection(S.Node);
  bool Sets = false;
  E.ForwardsParameters = !lower::mayLeaveStreamSet(E) &&
                         forwardsSets(S.Node, *S.ModuleScope, 0, Sets) && Sets;
  if (E.ForwardsParameters)
    ownCode(field(S.Node, "body"), [&](TSNode N) {
      E.ReadsCurrent |= is(N, "call") && isCurrentStreamCall(N, I);
    });
  return E;
}

bool Builder::forwardsSets(TSNode Def, const Scope &Module, unsigned Depth,
                           bool &Sets) const {
  // Through a forwarding setter of the file (`def use(s): set_stream(s)`),
  // a few calls deep.
  if (Depth > lower::MaxForwardingDepth) {
    Sets = true; // too deep to tell: judged as it is
    return false;
  }
  std::vector<std::string> Params = paramNames(Def, F);
  auto IsParam = [&](TSNode Arg) {
    Arg = unparen(Arg);
    if (is(Arg, "keyword_argument"))
      Arg = unparen(field(Arg, "value"));
    return is(Arg, "identifier") &&
           llvm::is_contained(Params, F.text(Arg).str());
  };
  bool OnlyParams = true;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (!is(X, "call") || !OnlyParams)
      return;
    TSNode Fn = field(X, "function");
    std::vector<TSNode> A = children(field(X, "arguments"));
    if (apiOf(I.qualify(Fn)) == PyApi::SetStream) {
      Sets = true;
      OnlyParams &= !A.empty() && IsParam(A[0]);
      return;
    }
    auto It =
        is(Fn, "identifier") ? Module.Defs.find(F.text(Fn)) : Module.Defs.end();
    if (It == Module.Defs.end() || decorated(It->second) ||
        It->second.id == Def.id)
      return;
    bool Inner = false;
    bool Forwards = forwardsSets(It->second, Module, Depth + 1, Inner);
    if (Inner) {
      Sets = true;
      OnlyParams &= Forwards && llvm::all_of(A, IsParam);
    }
  });
  return OnlyParams;
}

} // namespace streamsafe::py
