//===--- Scope.cpp - A Python scope's names and what they hold ------------===//

#include "lib/python/Scope.h"
#include "lib/model/ApiRows.h"
#include "lib/python/Api.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/Collectives.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
#include <optional>

namespace streamsafe::py {

namespace {

/// A name's class while inferring: unset until an assignment says.
using Cls = std::optional<VarClass>;
/// A name's class; List: Tensor when the name holds a list of tensors.
struct Lookup {
  std::function<Cls(llvm::StringRef)> Name;
  std::function<Cls(llvm::StringRef)> List = [](llvm::StringRef) {
    return Cls(VarClass::Other);
  };
  Cls operator()(llvm::StringRef N) const { return Name(N); }
};

Cls join(Cls A, Cls B) {
  if (!A)
    return B;
  if (!B)
    return A;
  return *A == *B ? A : Cls(VarClass::Other);
}

Cls classOfAnnotation(TSNode N, const SourceFile &F, const Imports &I) {
  if (is(N, "type") && !children(N).empty())
    N = children(N)[0];
  // A string annotation: "torch.Tensor" is not followed. The classes are
  // the model's (torch.cuda.Stream and torch.Stream, as C++'s CUDAStream
  // and c10::Stream).
  (void)F;
  switch (pythonClass(I.qualify(N))) {
  case ValueClass::Tensor:
    return VarClass::Tensor;
  case ValueClass::Stream:
    return VarClass::Stream;
  case ValueClass::Event:
    return VarClass::Event;
  default:
    return VarClass::Other;
  }
}

Cls elementClass(TSNode C, int Index, const Lookup &L, const SourceFile &F,
                 const Imports &I);

Cls exprClass(TSNode N, const Lookup &L, const SourceFile &F,
              const Imports &I) {
  N = unparen(N);
  llvm::StringRef T = type(N);
  if (T == "identifier")
    return L(F.text(N));
  if (T == "call") {
    TSNode Fn = field(N, "function");
    std::string Q = I.qualify(Fn);
    if (!Q.empty()) {
      switch (apiOf(Q)) {
      case PyApi::NewStream:
      case PyApi::ExternalStream:
      case PyApi::CurrentStream:
      case PyApi::DefaultStream:
        return VarClass::Stream;
      case PyApi::NewEvent:
        return VarClass::Event;
      case PyApi::Collective:
        // An asynchronous one returns its work handle: an event recorded
        // on the group's stream.
        switch (collectiveMode(N, *collectiveRow(Q), F)) {
        case CollectiveMode::Async:
          return VarClass::Event;
        default:
          return VarClass::Other;
        }
      case PyApi::TorchFunction:
        return VarClass::Tensor;
      default:
        return VarClass::Other;
      }
    }
    // A def of the file: what it returns (the lookup of "name()").
    if (is(Fn, "identifier"))
      return L((F.text(Fn).str() + "()"));
    if (!is(Fn, "attribute"))
      return VarClass::Other;
    Cls Recv = exprClass(field(Fn, "object"), L, F, I);
    llvm::StringRef Method = F.text(field(Fn, "attribute"));
    if (!Recv)
      return std::nullopt;
    if (*Recv == VarClass::Tensor) {
      switch (tensorMethod(Method)) {
      case ApiEffect::TensorOp:
      case ApiEffect::TensorInPlace:
      case ApiEffect::TensorView:
      case ApiEffect::TensorCopyFrom:
      case ApiEffect::TensorToHost:
      case ApiEffect::TensorTo:
      case ApiEffect::TensorPinMemory:
        return VarClass::Tensor;
      default:
        return VarClass::Other;
      }
    }
    if (*Recv == VarClass::Stream)
      if (const ApiRow *R = pythonApi(("torch.cuda.Stream." + Method.str()));
          R && R->Entry.Effect == ApiEffect::EventRecord)
        return VarClass::Event; // s.record_event(): a new event
    // work.get_future(): the work's future waits as the work does.
    if (*Recv == VarClass::Event && Method == "get_future")
      return VarClass::Event;
    return VarClass::Other;
  }
  if (T == "attribute") {
    Cls Recv = exprClass(field(N, "object"), L, F, I);
    if (!Recv)
      return std::nullopt;
    return *Recv == VarClass::Tensor &&
                   isViewAttribute(F.text(field(N, "attribute")))
               ? VarClass::Tensor
               : VarClass::Other;
  }
  if (T == "subscript") {
    Cls Recv = exprClass(field(N, "value"), L, F, I);
    if (!Recv)
      return std::nullopt;
    if (*Recv == VarClass::Tensor)
      return VarClass::Tensor;
    // xs[0] of a list of tensors (not a slice: that is a list).
    std::vector<TSNode> Index = fieldChildren(N, "subscript");
    if (Index.size() == 1 && is(Index[0], "integer"))
      return elementClass(field(N, "value"), -1, L, F, I);
    return VarClass::Other;
  }
  if (T == "binary_operator" || T == "comparison_operator") {
    // An operator with a tensor operand gives a tensor (a scalar operand
    // is broadcast).
    bool Unset = false, Tensor = false;
    for (TSNode C : children(N)) {
      Cls X = exprClass(C, L, F, I);
      if (!X)
        Unset = true;
      else if (*X == VarClass::Tensor)
        Tensor = true;
    }
    if (Tensor)
      return VarClass::Tensor;
    return Unset ? std::nullopt : Cls(VarClass::Other);
  }
  if (T == "unary_operator")
    return exprClass(field(N, "argument"), L, F, I);
  if (T == "conditional_expression") {
    std::vector<TSNode> C = children(N);
    if (C.size() == 3)
      return join(exprClass(C[0], L, F, I), exprClass(C[2], L, F, I));
  }
  return VarClass::Other;
}

/// The class of element \p Index (-1: of every element) of the container
/// \p C: a list or tuple literal, a comprehension, chunk() and its kin,
/// list(...) or tuple(...) of one, or a name holding a list of tensors.
/// Anything else holds nothing followed (Other); an empty literal, nothing
/// yet (unset).
Cls elementClass(TSNode C, int Index, const Lookup &L, const SourceFile &F,
                 const Imports &I) {
  C = unparen(C);
  llvm::StringRef T = type(C);
  if (T == "list" || T == "tuple" || T == "expression_list") {
    std::vector<TSNode> Items = children(C);
    for (TSNode E : Items)
      if (is(E, "list_splat") || is(E, "starred_expression"))
        return VarClass::Other;
    if (Index >= 0)
      return size_t(Index) < Items.size() ? exprClass(Items[Index], L, F, I)
                                          : Cls(VarClass::Other);
    Cls All;
    for (TSNode E : Items)
      All = join(All, exprClass(E, L, F, I));
    return All;
  }
  if (T == "identifier")
    return L.List(F.text(C));
  if (T == "list_comprehension" || T == "generator_expression") {
    // The element's class, its variables bound to elements of what they
    // iterate.
    llvm::StringMap<Cls> Vars;
    for (TSNode Clause : children(C))
      if (is(Clause, "for_in_clause") &&
          is(unparen(field(Clause, "left")), "identifier"))
        Vars[F.text(unparen(field(Clause, "left")))] =
            elementClass(field(Clause, "right"), -1, L, F, I);
    Lookup Inner = L;
    Inner.Name = [&](llvm::StringRef Name) -> Cls {
      auto It = Vars.find(Name);
      return It != Vars.end() ? It->second : L(Name);
    };
    Cls Body = exprClass(field(C, "body"), Inner, F, I);
    return Body == Cls(VarClass::Tensor) ? Body : Cls(VarClass::Other);
  }
  if (T != "call")
    return VarClass::Other;
  TSNode Fn = field(C, "function");
  std::vector<TSNode> Args = children(field(C, "arguments"));
  if (is(Fn, "identifier") && (F.text(Fn) == "list" || F.text(Fn) == "tuple") &&
      Args.size() == 1 && L(F.text(Fn)) == Cls(VarClass::Other) &&
      !is(Args[0], "keyword_argument"))
    return elementClass(Args[0], Index, L, F, I);
  // chunk() of what is not known yet: nothing known yet either.
  bool Unset = false;
  std::function<VarClass(TSNode)> ClassOf = [&](TSNode N) {
    Cls X = exprClass(N, L, F, I);
    Unset |= !X;
    return X.value_or(VarClass::Other);
  };
  if (!ts_node_is_null(pieceListBase(C, F, I, ClassOf)))
    return VarClass::Tensor;
  return Unset ? Cls() : Cls(VarClass::Other);
}

/// Names a target binds (an identifier, or the identifiers of a tuple or
/// list pattern).
void targetNames(TSNode N, const SourceFile &F,
                 std::vector<llvm::StringRef> &Out) {
  N = unparen(N);
  if (is(N, "identifier")) {
    Out.push_back(F.text(N));
    return;
  }
  if (is(N, "pattern_list") || is(N, "tuple_pattern") ||
      is(N, "list_pattern") || is(N, "list_splat_pattern") || is(N, "tuple") ||
      is(N, "list"))
    for (TSNode C : children(N))
      targetNames(C, F, Out);
}

/// Collects what a scope binds: each name with the values assigned to it
/// (null node: bound to something not followed).
class Collector {
public:
  Collector(const SourceFile &F) : F(F) {}

  void walk(TSNode N) {
    if (ts_node_is_null(N))
      return;
    llvm::StringRef T = type(N);
    if (T == "function_definition" || T == "class_definition") {
      bind(F.text(field(N, "name")), {});
      if (T == "function_definition")
        Defs.push_back(N);
      for (TSNode D : fieldChildren(N, "decorator"))
        walk(D);
      return; // its body is a scope of its own
    }
    if (T == "lambda" || T == "list_comprehension" ||
        T == "set_comprehension" || T == "dictionary_comprehension" ||
        T == "generator_expression")
      return; // scopes of their own (comprehensions are opaque)
    if (T == "global_statement" || T == "nonlocal_statement") {
      for (TSNode C : children(N))
        NotLocal.insert(F.text(C));
      return;
    }
    if (T == "assignment") {
      TSNode Left = field(N, "left"), Right = field(N, "right");
      if (is(unparen(Left), "identifier") && !ts_node_is_null(Right) &&
          !is(Right, "assignment"))
        bind(F.text(unparen(Left)), Right);
      else if (!ts_node_is_null(Right) && !is(Right, "assignment") &&
               flatPattern(Left)) {
        // a, b = pieces: each name is bound to one element.
        std::vector<TSNode> Names = children(unparen(Left));
        for (size_t K = 0; K < Names.size(); ++K)
          Elements[F.text(Names[K])].push_back({Right, int(K)});
      } else {
        std::vector<llvm::StringRef> Names;
        targetNames(Left, F, Names);
        for (llvm::StringRef Name : Names)
          bind(Name, {});
      }
    } else if (T == "augmented_assignment") {
      // x += y keeps x's class when x is a tensor (an in-place op).
      std::vector<llvm::StringRef> Names;
      targetNames(field(N, "left"), F, Names);
      for (llvm::StringRef Name : Names)
        Augmented.insert(Name);
    } else if (T == "for_statement" &&
               is(unparen(field(N, "left")), "identifier")) {
      Elements[F.text(unparen(field(N, "left")))].push_back(
          {field(N, "right"), -1});
    } else if (T == "call" && is(field(N, "function"), "attribute") &&
               is(field(field(N, "function"), "object"), "identifier") &&
               F.text(field(field(N, "function"), "attribute")) == "append") {
      // xs.append(t): what a list holds.
      std::vector<TSNode> Args = children(field(N, "arguments"));
      if (Args.size() == 1)
        Appended[F.text(field(field(N, "function"), "object"))].push_back(
            Args[0]);
    } else if (T == "for_statement" || T == "for_in_clause") {
      std::vector<llvm::StringRef> Names;
      targetNames(field(N, "left"), F, Names);
      for (llvm::StringRef Name : Names)
        bind(Name, {});
    } else if (T == "as_pattern") {
      std::vector<llvm::StringRef> Names;
      for (TSNode A : fieldChildren(N, "alias"))
        for (TSNode C : children(A))
          targetNames(C, F, Names);
      for (TSNode A : fieldChildren(N, "alias"))
        targetNames(A, F, Names);
      for (llvm::StringRef Name : Names)
        bind(Name, {});
    } else if (T == "except_clause") {
      for (TSNode C : children(N))
        if (is(C, "as_pattern"))
          walk(C);
    } else if (T == "named_expression") {
      bind(F.text(field(N, "name")), field(N, "value"));
    } else if (T == "import_statement" || T == "import_from_statement") {
      return;
    }
    uint32_t Count = ts_node_named_child_count(N);
    for (uint32_t I = 0; I < Count; ++I)
      walk(ts_node_named_child(N, I));
  }

  void bind(llvm::StringRef Name, TSNode Value) {
    Values[Name].push_back(Value);
  }

  /// A tuple or list pattern of plain names.
  bool flatPattern(TSNode N) {
    N = unparen(N);
    if (!is(N, "pattern_list") && !is(N, "tuple_pattern") &&
        !is(N, "list_pattern"))
      return false;
    std::vector<TSNode> C = children(N);
    return !C.empty() &&
           llvm::all_of(C, [](TSNode X) { return is(X, "identifier"); });
  }

  const SourceFile &F;
  llvm::StringMap<std::vector<TSNode>> Values;
  llvm::StringMap<std::vector<std::pair<TSNode, int>>> Elements;
  llvm::StringMap<std::vector<TSNode>> Appended;
  llvm::StringSet<> NotLocal;
  llvm::StringSet<> Augmented;
  std::vector<TSNode> Defs;
};

} // namespace

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
    if (S->Locals.count(Name))
      return VarClass::Other;
  }
  return VarClass::Other;
}

/// The class of what \p Def returns, whatever its arguments: its
/// annotation, else every return's value (none: Other).
static VarClass returnsOf(TSNode Def, const Scope &Parent, const SourceFile &F,
                          const Imports &I) {
  TSNode Annotation = field(Def, "return_type");
  if (!ts_node_is_null(Annotation))
    return classOfAnnotation(Annotation, F, I).value_or(VarClass::Other);
  auto S = makeScope(Def, Scope::Def, &Parent, F, I);
  Cls Class;
  std::vector<TSNode> Work{field(Def, "body")};
  while (!Work.empty()) {
    TSNode X = Work.back();
    Work.pop_back();
    llvm::StringRef T = type(X);
    if (T == "yield")
      return VarClass::Other; // a generator
    if (T == "function_definition" || T == "lambda" || T == "class_definition")
      continue;
    if (T == "return_statement") {
      std::vector<TSNode> C = children(X);
      Class = join(Class, C.size() == 1 ? Cls(classOfExpr(C[0], *S, F, I))
                                        : Cls(VarClass::Other));
      continue;
    }
    for (TSNode C : children(X))
      Work.push_back(C);
  }
  return Class.value_or(VarClass::Other);
}

VarClass Scope::classOf(llvm::StringRef Name) const {
  const Scope *S = owner(Name);
  return S ? S->Locals.lookup(Name) : VarClass::Other;
}

std::unique_ptr<Scope>
makeScope(TSNode Node, Scope::Kind K, const Scope *Parent, const SourceFile &F,
          const Imports &I, const llvm::StringMap<VarClass> *ParamClasses) {
  auto S = std::make_unique<Scope>();
  S->K = K;
  S->Node = Node;
  S->Parent = Parent;
  S->ModuleScope = Parent ? Parent->ModuleScope : S.get();
  Collector C(F);
  TSNode Body = K == Scope::Module ? Node : field(Node, "body");
  if (K == Scope::Lambda)
    C.walk(Body);
  else
    for (TSNode Stmt : children(Body))
      C.walk(Stmt);
  for (TSNode D : C.Defs)
    S->Defs[F.text(field(D, "name"))] = D;
  for (TSNode D : C.Defs) {
    llvm::StringRef Name = F.text(field(D, "name"));
    auto V = C.Values.find(Name);
    if (V == C.Values.end() || V->second.size() != 1 ||
        C.NotLocal.contains(Name) ||
        is(ts_node_parent(D), "decorated_definition"))
      continue;
    VarClass R = returnsOf(D, *S, F, I);
    if (R == VarClass::Tensor || R == VarClass::Stream)
      S->Returns[Name] = R;
  }

  // Parameters: an annotation says the class; a default or nothing does not,
  // but a use only a tensor has does (docs/python.md, "Values whose type is
  // not written").
  llvm::StringMap<Cls> Classes;
  llvm::StringMap<VarClass> ByUse;
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
      Classes[F.text(Name)] =
          !ts_node_is_null(Annotation) ? classOfAnnotation(Annotation, F, I)
          : ByUse.contains(F.text(Name)) && !is(P, "default_parameter") &&
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
  L.List = [&](llvm::StringRef Name) -> Cls {
    auto It = Lists.find(Name);
    if (It != Lists.end())
      return It->second;
    const Scope *O = Parent ? Parent->owner(Name) : nullptr;
    return O && O->TensorLists.contains(Name) ? Cls(VarClass::Tensor)
                                              : Cls(VarClass::Other);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &E : Classes) {
      Cls New = E.second;
      if (auto V = C.Values.find(E.getKey()); V != C.Values.end())
        for (TSNode Value : V->second)
          New = join(New, ts_node_is_null(Value) ? Cls(VarClass::Other)
                                                 : exprClass(Value, L, F, I));
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
  }
  // A local bound once, to a call the analysis cannot classify, is what
  // its uses say (`buf = pool.get(); buf.copy_(x)`).
  for (auto &E : Classes) {
    auto V = C.Values.find(E.getKey());
    if (E.second.value_or(VarClass::Other) != VarClass::Other ||
        !ByUse.contains(E.getKey()) || V == C.Values.end() ||
        V->second.size() != 1 || ts_node_is_null(V->second[0]) ||
        !is(unparen(V->second[0]), "call") || C.NotLocal.contains(E.getKey()) ||
        llvm::any_of(S->Params,
                     [&](TSNode P) { return F.text(P) == E.getKey(); }))
      continue;
    E.second = ByUse.lookup(E.getKey());
    S->ByUse.insert(E.getKey());
  }
  for (const auto &E : Classes)
    S->Locals[E.getKey()] = E.second.value_or(VarClass::Other);
  for (const auto &E : Lists)
    if (E.second == Cls(VarClass::Tensor))
      S->TensorLists.insert(E.getKey());
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

VarClass classOfExpr(TSNode Expr, const Scope &S, const SourceFile &F,
                     const Imports &I) {
  Lookup L;
  L.Name = [&S](llvm::StringRef Name) -> Cls {
    return Name.ends_with("()") ? S.returnClass(Name.drop_back(2))
                                : S.classOf(Name);
  };
  L.List = [&S](llvm::StringRef Name) -> Cls {
    const Scope *O = S.owner(Name);
    return O && O->TensorLists.contains(Name) ? Cls(VarClass::Tensor)
                                              : Cls(VarClass::Other);
  };
  return exprClass(Expr, L, F, I).value_or(VarClass::Other);
}

TSNode pieceListBase(TSNode Call, const SourceFile &F, const Imports &I,
                     const std::function<VarClass(TSNode)> &ClassOf) {
  Call = unparen(Call);
  if (!is(Call, "call"))
    return {};
  auto Splits = [](llvm::StringRef Name) {
    return tensorMethod(Name) == ApiEffect::TensorViewList;
  };
  TSNode Fn = field(Call, "function");
  std::string Q = I.qualify(Fn);
  if (!Q.empty()) {
    llvm::StringRef Rest = Q;
    std::vector<TSNode> Args = children(field(Call, "arguments"));
    if (Rest.consume_front("torch.") && Splits(Rest) && !Args.empty() &&
        !is(Args[0], "keyword_argument") &&
        ClassOf(Args[0]) == VarClass::Tensor)
      return Args[0];
    return {};
  }
  if (is(Fn, "attribute") && Splits(F.text(field(Fn, "attribute"))) &&
      ClassOf(field(Fn, "object")) == VarClass::Tensor)
    return field(Fn, "object");
  return {};
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

} // namespace streamsafe::py
