//===--- ReturnSummaries.cpp - What a project def's call returns ----------===//
//
// A def or method of the project that the analysis does not run in place
// (it takes no tensor, or is a method of an object held in an attribute)
// still says what its call returns: when every value it returns is a
// tensor it makes itself with a torch op, and it uses no stream API, the
// call's value is a new tensor made on the caller's current stream (the
// callee's current stream is the caller's). So `flat =
// self._store.get_flat()` is a block of the caller's pool that a later use
// on another stream owes a record_stream, as `torch.cat(...)` written at
// the call would be (docs/python.md, "Values whose type is not written").
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/Modules.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

/// Whether \p E makes a new device tensor with a torch function: an op
/// (its result lives where its inputs do), or a factory told a device
/// other than the host.
static bool makesTensor(TSNode E, const SourceFile &F, const Imports &I) {
  E = unparen(E);
  if (!is(E, "call"))
    return false;
  std::string Q = I.qualify(field(E, "function"));
  if (torchBareName(Q).empty())
    return false;
  switch (torchEffect(Q)) {
  case ApiEffect::AtenOp:
    return true;
  case ApiEffect::AtenFactory:
    for (TSNode A : children(field(E, "arguments")))
      if (is(A, "keyword_argument") && F.text(field(A, "name")) == "device") {
        TSNode V = unparen(field(A, "value"));
        return !(is(V, "string") && F.text(V).contains("cpu"));
      }
    return false;
  default:
    return false;
  }
}

bool HelperIndex::returnsNewTensor(TSNode Def) {
  auto [It, New] = NewTensorReturns.try_emplace(Def.id, false);
  if (!New)
    return It->second;
  if (usesStreams(Def))
    return false;
  // Every binding of each name in the def's own code.
  llvm::StringMap<std::vector<TSNode>> Bound;
  llvm::StringSet<> Other; // bound other than by `name = value`
  std::vector<TSNode> Returns;
  bool Generator = false;
  ownCode(field(Def, "body"), [&](TSNode N) {
    if (is(N, "yield"))
      Generator = true;
    if (is(N, "return_statement"))
      Returns.push_back(N);
    if (is(N, "assignment")) {
      TSNode L = unparen(field(N, "left"));
      if (is(L, "identifier"))
        Bound[F.text(L)].push_back(field(N, "right"));
      else
        everyNode(L, [&](TSNode X) {
          if (is(X, "identifier"))
            Other.insert(F.text(X));
        });
    }
    if (is(N, "for_statement") || is(N, "as_pattern") ||
        is(N, "named_expression"))
      everyNode(field(N, is(N, "for_statement") ? "left"
                         : is(N, "as_pattern")  ? "alias"
                                                : "name"),
                [&](TSNode X) {
                  if (is(X, "identifier"))
                    Other.insert(F.text(X));
                });
  });
  for (const std::string &P : paramNames(Def, F))
    Other.insert(P);
  auto Fresh = [&](TSNode E, TSNode Return) {
    E = unparen(E);
    if (makesTensor(E, F, I))
      return true;
    if (!is(E, "identifier") || Other.contains(F.text(E)))
      return false;
    // `x = op(...)` right before `return x` in the same block.
    TSNode Before = ts_node_prev_named_sibling(Return);
    if (is(Before, "expression_statement") && children(Before).size() == 1) {
      TSNode Assign = children(Before)[0];
      if (is(Assign, "assignment") &&
          is(unparen(field(Assign, "left")), "identifier") &&
          F.text(unparen(field(Assign, "left"))) == F.text(E))
        return makesTensor(field(Assign, "right"), F, I);
    }
    auto B = Bound.find(F.text(E));
    return B != Bound.end() && llvm::all_of(B->second, [&](TSNode V) {
             return makesTensor(V, F, I);
           });
  };
  bool All = !Generator && !Returns.empty();
  for (TSNode R : Returns) {
    std::vector<TSNode> C = children(R);
    All &= C.size() == 1 && Fresh(C[0], R);
  }
  return NewTensorReturns[Def.id] = All;
}

std::string HelperIndex::attributeConstructor(TSNode Class,
                                              llvm::StringRef Name) {
  auto [It, New] = Constructors.try_emplace(Class.id);
  llvm::StringMap<std::string> &Made = It->second;
  if (New) {
    // One walk of the class's own methods: each `self.x = v` gives x the
    // class v makes; anything else (or a second class) gives it "".
    llvm::StringSet<> Disagree;
    for (TSNode M : methodsWithSelf(Class, F)) {
      std::string Self = paramNames(M, F).front();
      ownCode(field(M, "body"), [&](TSNode N) {
        if (!is(N, "assignment") && !is(N, "augmented_assignment"))
          return;
        TSNode L = unparen(field(N, "left"));
        TSNode V = unparen(field(N, "right"));
        std::string Q;
        if (is(L, "attribute") && is(N, "assignment") && is(V, "call")) {
          Q = I.qualify(field(V, "function"));
          if (Q.empty() && is(field(V, "function"), "identifier"))
            Q = F.text(field(V, "function")).str();
        }
        everyNode(L, [&](TSNode X) {
          llvm::StringRef Attr;
          if (!is(X, "attribute") || !selfAttribute(X, Self, F, Attr))
            return;
          auto [E, First] = Made.try_emplace(Attr, Q);
          if (Q.empty() || (!First && E->second != Q) || X.id != L.id)
            Disagree.insert(Attr);
        });
      });
    }
    for (const auto &D : Disagree)
      Made[D.getKey()].clear();
  }
  return Made.lookup(Name);
}

/// Whether every return of the method \p Def gives its own object's state:
/// `self.x`, or an element of it (`self.x[k][j]`), and it returns.
static bool returnsOwnState(TSNode Def, const SourceFile &F) {
  std::vector<std::string> Params = paramNames(Def, F);
  if (Params.empty())
    return false;
  bool Any = false, Other = false;
  ownCode(field(Def, "body"), [&](TSNode N) {
    if (is(N, "yield"))
      Other = true;
    if (!is(N, "return_statement"))
      return;
    std::vector<TSNode> C = children(N);
    TSNode V = C.size() == 1 ? unparen(C[0]) : TSNode{};
    while (is(V, "subscript"))
      V = unparen(field(V, "value"));
    Any = true;
    Other |=
        !is(V, "attribute") || F.text(unparen(field(V, "object"))) != Params[0];
  });
  return Any && !Other;
}

/// The constant arguments of \p Call as written, the others as `...`: two
/// calls of one getter with different constants get different tensors.
static std::string constantArguments(TSNode Call, const SourceFile &F) {
  std::string Out;
  for (TSNode A : children(field(Call, "arguments"))) {
    TSNode V = unparen(is(A, "keyword_argument") ? field(A, "value") : A);
    bool Constant = is(V, "integer") || is(V, "string") || is(V, "true") ||
                    is(V, "false") || is(V, "none");
    Out += (Out.empty() ? "" : ", ") +
           (is(A, "keyword_argument") ? F.text(field(A, "name")).str() + "="
                                      : std::string()) +
           (Constant ? F.text(V).str() : std::string("..."));
  }
  return Out;
}

bool Builder::summarizedReturn(TSNode Call, const Args &A, Value &Result) {
  TSNode Fn = unparen(field(Call, "function"));
  TSNode Def{};
  HelperIndex *Index = X;
  if (std::optional<CalleeDef> C = calleeDef(Fn)) {
    Def = C->Def;
  } else if (std::string Q = I.qualify(Fn); !Q.empty() && Modules) {
    const ProjectModule *M = nullptr;
    Def = Modules->def(F, Q, M);
    if (!ts_node_is_null(Def) && !ts_node_is_null(classOf(Def)))
      Def = TSNode{};
    if (M)
      Index = M->X.get();
  } else if (is(Fn, "attribute")) {
    // self.attr.method(...): attr is only ever given objects of one class.
    TSNode Held = unparen(field(Fn, "object"));
    TSNode Of =
        is(Held, "attribute") ? unparen(field(Held, "object")) : TSNode{};
    TSNode Class = St->S->K == Scope::Def ? classOf(St->S->Node) : TSNode{};
    if (ts_node_is_null(Class) || !is(Of, "identifier") ||
        St->S->Params.empty() || F.text(Of) != F.text(St->S->Params[0]) ||
        !F.owns(Class))
      return false;
    std::string Made =
        X->attributeConstructor(Class, F.text(field(Held, "attribute")));
    if (Made.empty())
      return false;
    TSNode Target = X->moduleClass(Made);
    const SourceFile *Home = &F;
    if (ts_node_is_null(Target) && Modules) {
      const ProjectModule *M = nullptr;
      Target = Modules->moduleClass(F, Made, M);
      if (M) {
        Index = M->X.get();
        Home = M->F.get();
      }
    }
    if (ts_node_is_null(Target))
      return false;
    Def = methodOf(Target, F.text(field(Fn, "attribute")), *Home);
    // A getter of the held object's own tensors (`return
    // self._flat[rank][group]`): the same stored tensor whatever the call,
    // unless constant arguments tell two apart.
    if (!ts_node_is_null(Def) && !decorated(Def) &&
        returnsOwnState(Def, *Home) && !Index->usesStreams(Def)) {
      unknownCall(A, false);
      std::string Key = F.text(Held).str() + "." +
                        F.text(field(Fn, "attribute")).str() + "(" +
                        constantArguments(Call, F) + ")";
      auto [It, New] =
          Synthetic.try_emplace({"stored " + Key, Root->Node.id}, NoVar);
      if (New) {
        It->second = newSyntheticVar(Key, VarClass::Tensor);
        IR->Vars[It->second].Persistent = true;
      }
      Result = Value();
      Result.Node = Call;
      Result.Class = VarClass::Tensor;
      Result.Tensor = TensorRef::var(It->second);
      return true;
    }
  }
  if (ts_node_is_null(Def) || decorated(Def) || !Index->returnsNewTensor(Def))
    return false;
  // The arguments as for any call the analysis does not run; the value is
  // the callee's new tensor, made on the current stream.
  unknownCall(A, true);
  Result = newTensor(Call, /*Unowned=*/false);
  return true;
}

} // namespace streamsafe::py
