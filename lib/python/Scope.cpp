//===--- Scope.cpp - A Python scope's names and what they hold ------------===//

#include "lib/python/Scope.h"
#include "lib/model/ApiRows.h"
#include "lib/python/Api.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/Collectives.h"
#include "lib/python/ExprClasses.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/ParameterFields.h"
#include "lib/python/ReturnClasses.h"
#include "lib/python/ScopeBindings.h"
#include "lib/python/TupleListShapes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <optional>

namespace streamsafe::py {

using namespace infer;

bool isHostDataLiteral(TSNode Expr) {
  llvm::StringRef K = type(unparen(Expr));
  return K == "list" || K == "tuple" || K == "integer" || K == "float" ||
         K == "list_comprehension" || K == "true" || K == "false";
}

bool isHostData(TSNode Expr, const Scope &S, const SourceFile &F) {
  Expr = unparen(Expr);
  if (isHostDataLiteral(Expr))
    return true;
  if (!is(Expr, "identifier"))
    return false;
  const Scope *Owner = S.owner(F.text(Expr));
  return Owner && Owner->HostData.contains(F.text(Expr));
}

bool namesOwnContainer(TSNode Expr, const Scope &S, const SourceFile &F) {
  Expr = unparen(Expr);
  if (!is(Expr, "identifier"))
    return false;
  llvm::StringRef Name = F.text(Expr);
  const Scope *Owner = S.owner(Name);
  if (!Owner)
    return false;
  for (TSNode P : Owner->Params)
    if (F.text(P) == Name)
      return false;
  auto It = Owner->Bindings.find(Name);
  if (It == Owner->Bindings.end() || It->second.empty())
    return false;
  auto Display = [&](TSNode B) {
    static const llvm::StringSet<> Kinds = {"list",
                                            "dictionary",
                                            "set",
                                            "tuple",
                                            "list_comprehension",
                                            "dictionary_comprehension",
                                            "set_comprehension"};
    B = unparen(B);
    if (Kinds.contains(type(B)))
      return true;
    if (is(B, "binary_operator")) // [None] * n
      return Kinds.contains(type(unparen(field(B, "left"))));
    if (!is(B, "call"))
      return false;
    static const llvm::StringSet<> Makers = {"list", "dict", "set", "tuple"};
    TSNode Fn = field(B, "function");
    return is(Fn, "identifier") && Makers.contains(F.text(Fn));
  };
  return llvm::all_of(
      It->second, [&](TSNode B) { return !ts_node_is_null(B) && Display(B); });
}

const Scope *Scope::owner(llvm::StringRef Name) const {
  for (const Scope *S = this; S; S = S->Parent)
    if (S->Locals.count(Name))
      return S;
  return nullptr;
}

VarClass Scope::returnClass(llvm::StringRef Name) const {
  for (const Scope *S = this; S; S = S->Parent) {
    auto It = S->Returns.find(Name);
    if (It != S->Returns.end())
      return It->second;
    // A name the file imports is bound in its module scope.
    if (!S->Parent && S->Imported && !S->Defs.count(Name))
      if (VarClass C = S->Imported(Name); C != VarClass::Other)
        return C;
    if (S->Locals.count(Name) || S->Defs.count(Name))
      return VarClass::Other;
  }
  return VarClass::Other;
}

VarClass Scope::returnItemClass(llvm::StringRef Name, int Index) const {
  for (const Scope *S = this; S; S = S->Parent) {
    auto It = S->ReturnItems.find(Name);
    if (It != S->ReturnItems.end())
      return itemClass(It->second, Index);
    if (S->Locals.count(Name) || S->Returns.count(Name))
      return VarClass::Other;
  }
  return VarClass::Other;
}

bool Scope::holdsTuples(llvm::StringRef Name) const {
  const Scope *S = owner(Name);
  return S && S->TupleLists.count(Name);
}

std::optional<VarClass> Scope::tupleItemClass(llvm::StringRef Name,
                                              int Item) const {
  const Scope *S = owner(Name);
  auto It = S ? S->TupleLists.find(Name) : TupleLists.end();
  if (!S || It == S->TupleLists.end() || Item < 0 ||
      size_t(Item) >= It->second.size())
    return VarClass::Other;
  return It->second[Item];
}

VarClass Scope::classOf(llvm::StringRef Name) const {
  const Scope *S = owner(Name);
  return S ? S->Locals.lookup(Name) : VarClass::Other;
}

std::unique_ptr<Scope>
makeScope(TSNode Node, Scope::Kind K, const Scope *Parent, const SourceFile &F,
          const Imports &I, const llvm::StringMap<VarClass> *ParamClasses,
          const llvm::StringMap<VarClass> *SelfAttributes, int MethodDepth) {
  auto S = std::make_unique<Scope>();
  S->K = K;
  S->Node = Node;
  S->Parent = Parent;
  S->ModuleScope = Parent ? Parent->ModuleScope : S.get();
  ScopeBindings C(F);
  TSNode Body = K == Scope::Module ? Node : field(Node, "body");
  if (K == Scope::Lambda)
    C.walk(Body);
  else
    for (TSNode Stmt : children(Body))
      C.walk(Stmt);
  for (TSNode D : C.Defs)
    S->Defs[F.text(field(D, "name"))] = D;
  // Every def of the file (methods and nested defs too) may bind a
  // module name it declares global.
  if (K == Scope::Module)
    everyNode(Node, [&](TSNode N) {
      if (is(N, "function_definition"))
        C.globalWrites(N);
    });
  for (TSNode D : C.Defs) {
    llvm::StringRef Name = F.text(field(D, "name"));
    auto V = C.Values.find(Name);
    if (V == C.Values.end() || V->second.size() != 1 ||
        C.NotLocal.contains(Name) ||
        is(ts_node_parent(D), "decorated_definition"))
      continue;
    recordReturns(*S, Name, returnShapeOf(D, *S, F, I, MethodDepth - 1));
  }
  // A static method of a class of the module, called through the class
  // (`Handler.reload(state)`): what it returns, as "Handler.reload".
  if (K == Scope::Module)
    for (TSNode Stmt : children(Body)) {
      TSNode Class =
          is(Stmt, "decorated_definition") ? field(Stmt, "definition") : Stmt;
      if (!is(Class, "class_definition"))
        continue;
      for (TSNode M : children(field(Class, "body"))) {
        if (!is(M, "decorated_definition"))
          continue;
        TSNode Def = field(M, "definition");
        if (!is(Def, "function_definition") || !staticMethod(Def, F))
          continue;
        recordReturns(*S,
                      F.text(field(Class, "name")).str() + "." +
                          F.text(field(Def, "name")).str(),
                      returnShapeOf(Def, *S, F, I, MethodDepth - 1));
      }
    }

  // What its own object's methods return (`out = self._forward(x)`).
  if (K == Scope::Def)
    addMethodReturns(Node, *S, F, I, MethodDepth);

  // Parameters: an annotation says the class; a default or nothing does not,
  // but a use only a tensor has does (docs/python.md, "Values whose type is
  // not written").
  llvm::StringMap<Cls> Classes;
  llvm::StringMap<VarClass> ByUse;
  llvm::StringSet<> ParamLists; // parameters annotated lists of tensors
  llvm::StringSet<> ParamDicts; // and dicts whose values are tensors
  if (K == Scope::Def)
    ByUse = classesByUse(Node, F, I);
  if (K != Scope::Module) {
    for (TSNode P : children(field(Node, "parameters"))) {
      TSNode Name = P, Annotation = {};
      if (is(P, "typed_parameter")) {
        Name = children(P).empty() ? P : children(P)[0];
        Annotation = field(P, "type");
      } else if (is(P, "default_parameter") ||
                 is(P, "typed_default_parameter")) {
        Name = field(P, "name");
        Annotation = field(P, "type");
      }
      if (!is(Name, "identifier"))
        continue;
      S->Params.push_back(Name);
      if (ParamClasses && ParamClasses->count(F.text(Name))) {
        Classes[F.text(Name)] = ParamClasses->lookup(F.text(Name));
        continue;
      }
      // (A default of None says nothing of what the argument is
      // otherwise: `copy_buffer=None`.)
      bool NoneDefault =
          is(P, "default_parameter") && is(unparen(field(P, "value")), "none");
      // `xs: List[torch.Tensor]`: its elements are tensors (below).
      if (!ts_node_is_null(Annotation) &&
          elementClassOfAnnotation(Annotation, F, I) == Cls(VarClass::Tensor) &&
          !C.Values.count(F.text(Name)))
        ParamLists.insert(F.text(Name));
      if (!ts_node_is_null(Annotation) &&
          valueClassOfAnnotation(Annotation, F, I) == Cls(VarClass::Tensor))
        ParamDicts.insert(F.text(Name));
      Classes[F.text(Name)] =
          !ts_node_is_null(Annotation) ? classOfAnnotation(Annotation, F, I)
          : ByUse.contains(F.text(Name)) &&
                  (!is(P, "default_parameter") || NoneDefault) &&
                  !C.Values.count(F.text(Name))
              ? Cls(ByUse.lookup(F.text(Name)))
              : Cls(VarClass::Other);
    }
  }
  for (const auto &E : C.Values)
    if (!C.NotLocal.contains(E.getKey()))
      Classes.try_emplace(E.getKey(), std::nullopt);
  for (const auto &E : C.Augmented)
    Classes.try_emplace(E.getKey(), std::nullopt);
  for (const auto &E : C.Elements)
    if (!C.NotLocal.contains(E.getKey()))
      Classes.try_emplace(E.getKey(), std::nullopt);
  // Lists of tensors: Tensor when every binding and append says so.
  llvm::StringMap<Cls> Lists;
  for (const auto &E : C.Values)
    if (!C.NotLocal.contains(E.getKey()))
      Lists.try_emplace(E.getKey(), std::nullopt);

  // Lists of tuples: the arity from the syntax, each item's class solved
  // with the rest (TupleListShapes.h).
  llvm::StringMap<std::vector<Cls>> Columns;
  auto AppendsOf = [&](llvm::StringRef Name, bool Closures) {
    std::vector<TSNode> Out;
    if (auto A = C.Appended.find(Name); A != C.Appended.end())
      Out = A->second;
    if (auto A = C.ClosureAppended.find(Name);
        Closures && A != C.ClosureAppended.end())
      Out.insert(Out.end(), A->second.begin(), A->second.end());
    return Out;
  };
  for (const auto &E : C.Values)
    if (!C.NotLocal.contains(E.getKey()))
      if (unsigned N = tupleListArity(E.second, AppendsOf(E.getKey(), true)))
        Columns[E.getKey()].resize(N);

  // Lookups see this scope's names as inferred so far, then the enclosing
  // scopes' (a closure's or a global's class).
  Lookup L;
  L.Name = [&](llvm::StringRef Name) -> Cls {
    if (Name.ends_with("()")) {
      llvm::StringRef Def = Name.drop_back(2);
      if (S->Returns.count(Def))
        return S->Returns.lookup(Def);
      if (Classes.count(Def))
        return Cls(VarClass::Other); // bound here to something else
      return Parent ? Parent->returnClass(Def) : VarClass::Other;
    }
    auto It = Classes.find(Name);
    if (It != Classes.end())
      return It->second;
    return Parent ? Cls(Parent->classOf(Name)) : Cls(VarClass::Other);
  };
  L.Item = [&](llvm::StringRef Def, int Index) -> Cls {
    if (S->ReturnItems.count(Def) || !Classes.count(Def))
      return S->returnItemClass(Def, Index);
    return Cls(VarClass::Other); // bound here to something else
  };
  L.Column = [&](llvm::StringRef Name, int Item) -> Cls {
    if (auto It = Columns.find(Name); It != Columns.end())
      return size_t(Item) < It->second.size() ? It->second[Item]
                                              : Cls(VarClass::Other);
    if (Classes.count(Name) || !Parent)
      return Cls(VarClass::Other);
    return Parent->tupleItemClass(Name, Item);
  };
  if (SelfAttributes && !S->Params.empty()) {
    L.Attribute = [&](TSNode A) -> std::optional<Cls> {
      TSNode O = unparen(field(A, "object"));
      if (!is(O, "identifier") || F.text(O) != F.text(S->Params[0]))
        return std::nullopt;
      auto It = SelfAttributes->find(F.text(field(A, "attribute")));
      return It == SelfAttributes->end() ? Cls(VarClass::Other)
                                         : Cls(It->second);
    };
  }
  // A parameter annotated `Dict[str, torch.Tensor]` holds tensors; a dict
  // attribute of tensors (AttributeDicts.cpp) is named "d[]".
  L.DictValue = [&](TSNode D) -> std::optional<Cls> {
    D = unparen(D);
    if (is(D, "identifier") && ParamDicts.contains(F.text(D)) &&
        !C.Values.count(F.text(D)))
      return Cls(VarClass::Tensor);
    if (!SelfAttributes || S->Params.empty() || !is(D, "attribute") ||
        F.text(unparen(field(D, "object"))) != F.text(S->Params[0]))
      return std::nullopt;
    auto It = SelfAttributes->find(F.text(field(D, "attribute")).str() + "[]");
    return It == SelfAttributes->end() ? std::nullopt
                                       : std::optional<Cls>(It->second);
  };
  L.List = [&](llvm::StringRef Name) -> Cls {
    auto It = Lists.find(Name);
    if (It != Lists.end())
      return It->second;
    if (ParamLists.contains(Name))
      return Cls(VarClass::Tensor);
    const Scope *O = Parent ? Parent->owner(Name) : nullptr;
    return O && (O->TensorLists.contains(Name) ||
                 O->TensorListParams.contains(Name))
               ? Cls(VarClass::Tensor)
               : Cls(VarClass::Other);
  };
  // Names whose class their uses pin (below): the fixpoint leaves them be.
  llvm::StringMap<VarClass> Pinned;
  // A local annotated as a tensor, a stream or an event is one, whatever
  // it is bound to (every annotation of it agreeing); bound to a value not
  // followed, it is a value made there, as a local its uses type.
  for (const auto &E : C.Annotated) {
    if (C.NotLocal.contains(E.getKey()) || !Classes.count(E.getKey()))
      continue;
    Cls A;
    for (TSNode T : E.second)
      A = join(A, classOfAnnotation(T, F, I));
    if (A == Cls(VarClass::Tensor) || A == Cls(VarClass::Stream) ||
        A == Cls(VarClass::Event)) {
      Classes[E.getKey()] = A;
      Pinned[E.getKey()] = *A;
      S->ByUse.insert(E.getKey());
    }
  }
  const llvm::StringMap<Cls> Initial = Classes;
  const llvm::StringMap<Cls> InitialLists = Lists;
  auto Solve = [&] {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &E : Classes) {
        if (Pinned.count(E.getKey()))
          continue;
        Cls New = E.second;
        if (auto V = C.Values.find(E.getKey()); V != C.Values.end())
          for (TSNode Value : V->second) {
            // None says nothing of what a name holds otherwise (`y =
            // None` before the branch or loop that makes it; a global made
            // on first use): it holds no memory there.
            if (!ts_node_is_null(Value) && is(unparen(Value), "none"))
              continue;
            New = join(New, ts_node_is_null(Value) ? Cls(VarClass::Other)
                                                   : exprClass(Value, L, F, I));
          }
        if (auto V = C.Elements.find(E.getKey()); V != C.Elements.end())
          for (const auto &[Container, Index] : V->second)
            New = join(New, elementClass(Container, Index, L, F, I));
        if (New != E.second) {
          E.second = New;
          Changed = true;
        }
      }
      for (auto &E : Lists) {
        Cls New = E.second;
        for (TSNode Value : C.Values.find(E.getKey())->second)
          New = join(New, ts_node_is_null(Value)
                              ? Cls(VarClass::Other)
                              : elementClass(Value, -1, L, F, I));
        if (auto V = C.Appended.find(E.getKey()); V != C.Appended.end())
          for (TSNode Value : V->second)
            New = join(New, exprClass(Value, L, F, I));
        if (New != E.second) {
          E.second = New;
          Changed = true;
        }
      }
      for (auto &E : Columns) {
        std::vector<TSNode> Appends = AppendsOf(E.getKey(), false);
        for (size_t K = 0; K < E.second.size(); ++K) {
          Cls New = tupleListColumn(K, C.Values.find(E.getKey())->second,
                                    Appends, L, F, I);
          if (New != E.second[K]) {
            E.second[K] = New;
            Changed = true;
          }
        }
      }
    }
  };
  Solve();
  // A local whose uses say what it is (ClassesByUse.h) is that, when every
  // binding agrees or is a value not followed (a call, an attribute):
  // `flat = store.get_flat(); flat /= n; flat = flat.to(dt)` (docs/python.md,
  // "Values whose type is not written"). Pinning one may make others
  // known (`parts = flat.split(k)`): solve again until none is new.
  for (bool New = true; New;) {
    New = false;
    for (auto &E : Classes) {
      llvm::StringRef Name = E.getKey();
      auto V = C.Values.find(Name);
      auto Els = C.Elements.find(Name);
      if (Pinned.count(Name) || !ByUse.contains(Name) ||
          (V == C.Values.end() && Els == C.Elements.end()) ||
          C.NotLocal.contains(Name) ||
          llvm::any_of(S->Params, [&](TSNode P) { return F.text(P) == Name; }))
        continue;
      VarClass Want = ByUse.lookup(Name);
      if (E.second && *E.second == Want)
        continue; // the bindings say so already
      Lookup Own = L;
      Own.Name = [&](llvm::StringRef N) -> Cls {
        return N == Name ? Cls(Want) : L(N);
      };
      // Each binding (each arm of `a if c else b`) agrees, or is a value
      // not followed; at least one is the latter.
      bool Opaque = false;
      std::function<bool(TSNode)> Agrees = [&](TSNode Value) -> bool {
        if (ts_node_is_null(Value))
          return false;
        Value = unparen(Value);
        if (is(Value, "conditional_expression")) {
          std::vector<TSNode> Arms = children(Value);
          return Arms.size() == 3 && Agrees(Arms[0]) && Agrees(Arms[2]);
        }
        if (opaqueValue(Value, F, I)) {
          Opaque = true;
          return true;
        }
        return is(Value, "none") || exprClass(Value, Own, F, I) == Cls(Want);
      };
      // An element of a container the analysis does not follow (`dev, cpu
      // = state` of a parameter, `for p in params`) is such a value too.
      auto UnknownElement = [&](const std::pair<TSNode, int> &E) {
        TSNode Container = unparen(E.first);
        // An item of a list of tuples whose appends (a closure's) say
        // nothing of it.
        if (itemOfEachElement(E.second) >= 0 && is(Container, "identifier") &&
            (Columns.count(F.text(Container)) ||
             (!Classes.count(F.text(Container)) && Parent &&
              Parent->holdsTuples(F.text(Container)))))
          return Own.Column(F.text(Container), itemOfEachElement(E.second)) !=
                 Cls(VarClass::Tensor);
        if (elementClass(Container, E.second, Own, F, I) !=
            Cls(VarClass::Other))
          return false;
        if (opaqueValue(Container, F, I))
          return true;
        return is(Container, "identifier") &&
               exprClass(Container, Own, F, I) == Cls(VarClass::Other) &&
               llvm::any_of(S->Params, [&](TSNode P) {
                 return F.text(P) == F.text(Container);
               });
      };
      bool Agree = (V == C.Values.end() || llvm::all_of(V->second, Agrees)) &&
                   (Els == C.Elements.end() ||
                    llvm::all_of(Els->second, [&](const auto &E) {
                      bool U = UnknownElement(E);
                      Opaque |= U;
                      return U;
                    }));
      if (!Agree || !Opaque)
        continue;
      Pinned[Name] = Want;
      S->ByUse.insert(Name);
      New = true;
    }
    if (!New)
      break;
    for (auto &E : Classes) {
      auto P = Pinned.find(E.getKey());
      E.second =
          P != Pinned.end() ? Cls(P->second) : Initial.lookup(E.getKey());
    }
    Lists = InitialLists;
    Solve();
  }
  for (const auto &E : Classes)
    S->Locals[E.getKey()] = E.second.value_or(VarClass::Other);
  for (const auto &E : Lists)
    if (E.second == Cls(VarClass::Tensor))
      S->TensorLists.insert(E.getKey());
  for (const auto &E : Columns)
    for (Cls K : E.second)
      S->TupleLists[E.getKey()].push_back(K);
  for (const auto &E : C.Values)
    S->Bindings[E.getKey()] = E.second;

  for (const auto &E : C.Values) {
    llvm::StringRef Name = E.getKey();
    bool Param =
        llvm::any_of(S->Params, [&](TSNode P) { return F.text(P) == Name; });
    if (Param || C.NotLocal.contains(Name) || C.Augmented.contains(Name) ||
        C.Elements.count(Name) || C.Appended.count(Name))
      continue;
    if (llvm::all_of(E.second, [](TSNode V) {
          return !ts_node_is_null(V) && isHostDataLiteral(V);
        }))
      S->HostData.insert(Name);
  }
  for (const auto &E : C.Elements)
    S->Elements[E.getKey()] = E.second;
  for (const auto &E : ParamLists)
    S->TensorListParams.insert(E.getKey());
  for (const auto &E : ParamDicts)
    S->TensorDictParams.insert(E.getKey());
  // `for t in xs` of such a parameter: t is the caller's tensor, as one its
  // uses type (BuildAssignments.cpp, elementByUse).
  for (const auto &E : C.Elements)
    if (S->Locals.lookup(E.getKey()) == VarClass::Tensor &&
        llvm::all_of(E.second, [&](const std::pair<TSNode, int> &Of) {
          TSNode C = unparen(Of.first);
          if (!is(C, "identifier"))
            return false;
          // (A closure's loop over its def's parameter too.)
          const Scope *Enclosing = !Classes.count(F.text(C)) && Parent
                                       ? Parent->owner(F.text(C))
                                       : nullptr;
          return Of.second == infer::DictValueIndex
                     ? ParamDicts.contains(F.text(C)) ||
                           (Enclosing &&
                            Enclosing->TensorDictParams.contains(F.text(C)))
                     : Of.second == -1 &&
                           (ParamLists.contains(F.text(C)) ||
                            (Enclosing &&
                             Enclosing->TensorListParams.contains(F.text(C))));
        }))
      S->ByUse.insert(E.getKey());
  for (const auto &E : C.Augmented)
    S->Augmented.insert(E.getKey());
  if (K == Scope::Def)
    addParameterFields(*S, ByUse, C.Values, C.Elements, F);
  // A device bound once, to a literal: `cuda = torch.device('cuda')`.
  for (const auto &E : C.Values)
    if (E.second.size() == 1 && !ts_node_is_null(E.second[0]) &&
        !C.Augmented.contains(E.getKey())) {
      std::string D = deviceOf(E.second[0], *S, F, I);
      if (!D.empty())
        S->Devices[E.getKey()] = D;
    }
  return S;
}

std::string deviceOf(TSNode N, const Scope &S, const SourceFile &F,
                     const Imports &I) {
  N = unparen(N);
  if (is(N, "string")) {
    llvm::StringRef Text = F.text(N).trim("'\"");
    if (Text.starts_with("cuda"))
      return "cuda";
    if (Text == "cpu")
      return "cpu";
    return "";
  }
  if (is(N, "call") && I.qualify(field(N, "function")) == "torch.device") {
    std::vector<TSNode> Args = children(field(N, "arguments"));
    return Args.empty() ? "" : deviceOf(Args[0], S, F, I);
  }
  if (is(N, "identifier")) {
    for (const Scope *Sc = S.owner(F.text(N)); Sc;) {
      auto It = Sc->Devices.find(F.text(N));
      return It == Sc->Devices.end() ? "" : It->second;
    }
  }
  return "";
}

TSNode dictLoopOf(TSNode For, const SourceFile &F) {
  TSNode Left = unparen(field(For, "left"));
  TSNode Right = unparen(field(For, "right"));
  TSNode Fn = is(Right, "call") ? field(Right, "function") : TSNode{};
  if (!is(Fn, "attribute") || !children(field(Right, "arguments")).empty())
    return {};
  llvm::StringRef Method = F.text(field(Fn, "attribute"));
  std::vector<TSNode> Names = children(Left);
  bool Pair = (is(Left, "pattern_list") || is(Left, "tuple_pattern")) &&
              Names.size() == 2 && is(Names[0], "identifier") &&
              is(Names[1], "identifier");
  if ((Method == "values" && is(Left, "identifier")) ||
      (Method == "items" && Pair))
    return field(Fn, "object");
  return {};
}

} // namespace streamsafe::py
