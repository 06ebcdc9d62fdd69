//===--- Scope.cpp - A Python scope's names and what they hold ------------===//

#include "lib/python/Scope.h"
#include "lib/python/Api.h"
#include <functional>
#include <optional>

namespace streamsafe::py {

namespace {

/// A name's class while inferring: unset until an assignment says.
using Cls = std::optional<VarClass>;
using Lookup = std::function<Cls(llvm::StringRef)>;

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
  // A string annotation: "torch.Tensor" is not followed.
  std::string Q = I.qualify(N);
  if (Q == "torch.Tensor")
    return VarClass::Tensor;
  if (Q == "torch.cuda.Stream")
    return VarClass::Stream;
  if (Q == "torch.cuda.Event")
    return VarClass::Event;
  (void)F;
  return VarClass::Other;
}

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
      case PyApi::Factory:
      case PyApi::LikeFactory:
      case PyApi::TensorOp:
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
      case TensorMethod::Op:
      case TensorMethod::InPlace:
      case TensorMethod::View:
      case TensorMethod::CopyFrom:
      case TensorMethod::To:
      case TensorMethod::PinMemory:
        return VarClass::Tensor;
      default:
        return VarClass::Other;
      }
    }
    if (*Recv == VarClass::Stream && Method == "record_event")
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
    return *Recv == VarClass::Tensor ? VarClass::Tensor : VarClass::Other;
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
      else {
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

  const SourceFile &F;
  llvm::StringMap<std::vector<TSNode>> Values;
  llvm::StringSet<> NotLocal;
  llvm::StringSet<> Augmented;
  std::vector<TSNode> Defs;
};

} // namespace

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

  // Parameters: an annotation says the class; a default or nothing does not.
  llvm::StringMap<Cls> Classes;
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
      Classes[F.text(Name)] = ts_node_is_null(Annotation)
                                  ? Cls(VarClass::Other)
                                  : classOfAnnotation(Annotation, F, I);
    }
  }
  for (const auto &E : C.Values)
    if (!C.NotLocal.contains(E.getKey()))
      Classes.try_emplace(E.getKey(), std::nullopt);
  for (const auto &E : C.Augmented)
    Classes.try_emplace(E.getKey(), std::nullopt);

  // Lookups see this scope's names as inferred so far, then the enclosing
  // scopes' (a closure's or a global's class).
  Lookup L = [&](llvm::StringRef Name) -> Cls {
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
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &E : Classes) {
      auto V = C.Values.find(E.getKey());
      if (V == C.Values.end())
        continue;
      Cls New = E.second;
      for (TSNode Value : V->second)
        New = join(New, ts_node_is_null(Value) ? Cls(VarClass::Other)
                                               : exprClass(Value, L, F, I));
      if (New != E.second) {
        E.second = New;
        Changed = true;
      }
    }
  }
  for (const auto &E : Classes)
    S->Locals[E.getKey()] = E.second.value_or(VarClass::Other);
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
  Lookup L = [&S](llvm::StringRef Name) -> Cls {
    return Name.ends_with("()") ? S.returnClass(Name.drop_back(2))
                                : S.classOf(Name);
  };
  return exprClass(Expr, L, F, I).value_or(VarClass::Other);
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
