//===--- Records.cpp - Dataclasses and named tuples of tensors ------------===//
//
// `Rec(a, b)` of a record class of this file (a @dataclass, a
// typing.NamedTuple class, a collections.namedtuple() bound at module
// level) makes an object whose tensor fields are variables of their own,
// bound to the arguments: `batch.out` is then that tensor wherever the
// object is named (attributeValue), and `batch.out = t` rebinds it. The
// generated __init__ only stores its arguments, so nothing else runs. A
// field whose annotation is not a tensor (or, for namedtuple(), whose
// argument is not one) is not followed.
//
//===----------------------------------------------------------------------===//

#include "lib/model/ApiRows.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

namespace {

using Field = RecordField;

/// The decorator's callee: `@dataclass`, `@dataclasses.dataclass(...)`.
TSNode decoratorCallee(TSNode Decorator) {
  std::vector<TSNode> C = children(Decorator);
  if (C.empty())
    return {};
  TSNode E = C[0];
  return is(E, "call") ? field(E, "function") : E;
}

/// A @dataclass whose generated __init__ takes its fields in order (no
/// init=False, no field(init=...), no KW_ONLY, no base class, no
/// __init__ or __post_init__ of its own), or a NamedTuple class.
std::optional<std::vector<Field>> classFields(TSNode Class, TSNode Decorated,
                                              const SourceFile &F,
                                              const Imports &I) {
  bool Dataclass = false, NamedTuple = false;
  std::vector<TSNode> Bases = children(field(Class, "superclasses"));
  if (!ts_node_is_null(Decorated)) {
    for (TSNode D : children(Decorated)) {
      if (!is(D, "decorator"))
        continue;
      if (I.qualify(decoratorCallee(D)) != "dataclasses.dataclass")
        return std::nullopt;
      std::vector<TSNode> C = children(D);
      if (is(C[0], "call"))
        for (TSNode A : children(field(C[0], "arguments")))
          if (is(A, "keyword_argument") &&
              (F.text(field(A, "name")) == "init" ||
               F.text(field(A, "name")) == "kw_only"))
            return std::nullopt;
      Dataclass = true;
    }
    if (!Bases.empty())
      return std::nullopt;
  } else {
    NamedTuple =
        Bases.size() == 1 && I.qualify(Bases[0]) == "typing.NamedTuple";
  }
  if (!Dataclass && !NamedTuple)
    return std::nullopt;
  std::vector<Field> Out;
  for (TSNode S : children(field(Class, "body"))) {
    if (is(S, "function_definition") || is(S, "decorated_definition")) {
      TSNode Def = is(S, "function_definition") ? S : field(S, "definition");
      llvm::StringRef Name = F.text(field(Def, "name"));
      if (Name == "__init__" || Name == "__post_init__" || Name == "__new__")
        return std::nullopt;
      continue;
    }
    if (!is(S, "expression_statement") || children(S).empty())
      continue;
    TSNode A = children(S)[0];
    TSNode Type = field(A, "type");
    TSNode Left = field(A, "left");
    if (!is(A, "assignment") || ts_node_is_null(Type))
      continue; // a plain class attribute: not a field
    if (!is(Left, "identifier"))
      return std::nullopt;
    TSNode T =
        is(Type, "type") && !children(Type).empty() ? children(Type)[0] : Type;
    llvm::StringRef TypeText = F.text(T);
    if (TypeText.starts_with("ClassVar") || TypeText.contains("KW_ONLY") ||
        I.qualify(is(T, "generic_type") ? children(T)[0] : T) ==
            "typing.ClassVar")
      continue;
    if (TypeText.contains("InitVar"))
      return std::nullopt;
    TSNode Default = unparen(field(A, "right"));
    if (is(Default, "call") &&
        I.qualify(field(Default, "function")) == "dataclasses.field")
      for (TSNode X : children(field(Default, "arguments")))
        if (is(X, "keyword_argument") &&
            (F.text(field(X, "name")) == "init" ||
             F.text(field(X, "name")) == "kw_only"))
          return std::nullopt;
    Field Fd;
    Fd.Name = F.text(Left).str();
    Fd.Tensor = pythonClass(I.qualify(T)) == ValueClass::Tensor;
    Out.push_back(std::move(Fd));
  }
  return Out;
}

/// `Name = namedtuple("Name", ["a", "b"])` (or "a b", "a, b").
std::optional<std::vector<Field>>
factoryFields(TSNode Call, const SourceFile &F, const Imports &I) {
  if (I.qualify(field(Call, "function")) != "collections.namedtuple")
    return std::nullopt;
  std::vector<TSNode> A = children(field(Call, "arguments"));
  if (A.size() < 2 || is(A[0], "keyword_argument") ||
      is(A[1], "keyword_argument"))
    return std::nullopt;
  for (size_t K = 2; K < A.size(); ++K)
    if (!is(A[K], "keyword_argument") ||
        F.text(field(A[K], "name")) != "defaults")
      return std::nullopt; // rename=True changes the names
  std::vector<std::string> Names;
  TSNode List = unparen(A[1]);
  if (is(List, "list") || is(List, "tuple")) {
    for (TSNode E : children(List)) {
      llvm::StringRef S = plainString(E, F);
      if (S.empty())
        return std::nullopt;
      Names.push_back(S.str());
    }
  } else {
    llvm::StringRef S = plainString(List, F);
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    S.split(Parts, ' ', -1, false);
    for (llvm::StringRef P : Parts) {
      llvm::SmallVector<llvm::StringRef, 4> Sub;
      P.split(Sub, ',', -1, false);
      for (llvm::StringRef X : Sub)
        if (!X.trim().empty())
          Names.push_back(X.trim().str());
    }
  }
  if (Names.empty())
    return std::nullopt;
  std::vector<Field> Out;
  for (std::string &N : Names) {
    Field Fd;
    Fd.Name = std::move(N);
    Fd.Untyped = true;
    Out.push_back(std::move(Fd));
  }
  return Out;
}

/// The fields of the record class the module binds to \p Name once (none:
/// not a record, or bound more than once).
std::optional<std::vector<Field>>
recordFields(llvm::StringRef Name, const SourceFile &F, const Imports &I) {
  std::optional<std::vector<Field>> Found;
  unsigned Bindings = 0;
  for (TSNode S : children(F.root())) {
    TSNode Class = S, Decorated = {};
    if (is(S, "decorated_definition")) {
      Decorated = S;
      Class = field(S, "definition");
    }
    if (is(Class, "class_definition") || is(Class, "function_definition")) {
      if (F.text(field(Class, "name")) != Name)
        continue;
      ++Bindings;
      if (is(Class, "class_definition"))
        Found = classFields(Class, Decorated, F, I);
      continue;
    }
    if (!is(S, "expression_statement") || children(S).empty())
      continue;
    TSNode A = children(S)[0];
    if (!is(A, "assignment") || !is(field(A, "left"), "identifier") ||
        F.text(field(A, "left")) != Name)
      continue;
    ++Bindings;
    TSNode R = unparen(field(A, "right"));
    if (is(R, "call"))
      Found = factoryFields(R, F, I);
  }
  if (Bindings != 1)
    return std::nullopt;
  return Found;
}

} // namespace

const Instance *Builder::newRecord(TSNode Call) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "identifier"))
    return nullptr;
  const Scope *Owner = St->S->owner(F.text(Fn));
  if (Owner && Owner->K != Scope::Module)
    return nullptr;
  const std::optional<std::vector<RecordField>> &Record = Objs.record(
      F.text(Fn).str(), [&] { return recordFields(F.text(Fn), F, I); });
  if (!Record)
    return nullptr;
  const std::vector<RecordField> &Fields = *Record;
  // The arguments, matched to the fields as the generated __init__ does;
  // a splat, an unknown keyword or too many arguments: not followed.
  Args A = argsOf(Call);
  if (A.Positional.size() > Fields.size())
    return nullptr;
  std::vector<TSNode> Given(Fields.size());
  for (size_t K = 0; K < A.Positional.size(); ++K) {
    if (is(A.Positional[K], "list_splat") ||
        is(A.Positional[K], "dictionary_splat"))
      return nullptr;
    Given[K] = A.Positional[K];
  }
  for (const auto &KV : A.Keywords) {
    llvm::StringRef Key = KV.first;
    TSNode Node = KV.second;
    auto At = llvm::find_if(
        Fields, [&](const RecordField &Fd) { return Fd.Name == Key; });
    if (At == Fields.end() || !ts_node_is_null(Given[At - Fields.begin()]))
      return nullptr;
    Given[At - Fields.begin()] = Node;
  }
  // Named after the variable it is bound to, when it is: 'batch.out'.
  std::string Prefix = F.text(Fn).str();
  TSNode Up = ts_node_parent(Call);
  if (is(Up, "assignment") && is(field(Up, "left"), "identifier"))
    Prefix = F.text(field(Up, "left")).str();
  Instance &O = Objs.make();
  SiteId At = site(SiteKind::Other, Call);
  // In the order written, as Python evaluates them.
  std::vector<std::pair<TSNode, size_t>> Order;
  for (size_t K = 0; K < Given.size(); ++K)
    if (!ts_node_is_null(Given[K]))
      Order.push_back({Given[K], K});
  llvm::sort(Order, [](const auto &L, const auto &R) {
    return ts_node_start_byte(L.first) < ts_node_start_byte(R.first);
  });
  for (const auto &[Node, K] : Order) {
    Value V = expr(Node);
    const RecordField &Fd = Fields[K];
    bool Followed = Fd.Tensor || (Fd.Untyped && V.Class == VarClass::Tensor);
    if (!Followed) {
      escape(V, Node); // kept where the analysis does not follow it
      continue;
    }
    Variable Var;
    Var.Name = Prefix + "." + Fd.Name;
    Var.Class = VarClass::Tensor;
    IR->Vars.push_back(std::move(Var));
    VarId Id = IR->Vars.size() - 1;
    O.Attrs[Fd.Name] = Id;
    emit(At, fact::BindTensor{Id, V.Class == VarClass::Tensor ? V.Tensor
                                                              : TensorRef()});
  }
  // A typed field not given (a default) holds what is not followed.
  for (size_t K = 0; K < Fields.size(); ++K)
    if (Fields[K].Tensor && ts_node_is_null(Given[K])) {
      Variable Var;
      Var.Name = Prefix + "." + Fields[K].Name;
      Var.Class = VarClass::Tensor;
      IR->Vars.push_back(std::move(Var));
      O.Attrs[Fields[K].Name] = IR->Vars.size() - 1;
      emit(At, fact::BindTensor{VarId(IR->Vars.size() - 1), TensorRef()});
    }
  return &O;
}

} // namespace streamsafe::py
