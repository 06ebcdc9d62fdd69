//===--- BranchConditions.cpp - What a Python branch tells ----------------===//
//
// Real code chooses its streams by configuration: `if self._overlap:
// stream = self._comm_stream else: stream = current_stream()`, then later
// `if self._overlap: ...` again. A branch on a value that does not change
// while the def runs marks its two edges with what each tells (the value is
// truthy, or not; it is None, or not), and the engine keeps the states of
// paths that contradict each other apart (lib/engine/Solver.cpp,
// "Correlated branches"), as it does for the C++ front end's flags. So the
// race on the path where the flag is set is not joined into an unknown
// stream, and the path that tests the flag both ways does not exist.
//
// Tracked: the def's own parameters it never rebinds, its locals bound once
// outside any loop, module globals bound once that no def declares global,
// and `self.attr` where every write of `attr` in the file is in an
// `__init__` (HelperIndex::setOnlyAtConstruction). Names are tracked only
// in the analysed def's own code: a helper run in place twice binds its
// parameters anew each time.
//
//===----------------------------------------------------------------------===//

#include "lib/model/Accelerators.h"
#include "lib/model/TensorMethods.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/STLExtras.h"
#include <set>

namespace streamsafe::py {

namespace {

/// The test \p Cond makes of one value: the value, whether it is the value's
/// truth (else whether it is not None), and whether the true edge means
/// the test holds.
struct Test {
  TSNode Of{};
  bool Truth = true;
  bool Holds = true;
  /// A comparison with a constant (`n > 1`, `mode == "overlap"`): its
  /// operator and constant, as written; the test is then neither a truth
  /// nor a None test.
  std::string Compare;
  /// For `x == c` and `x != c` of an integer or a plain string: the
  /// constant's value (`5`, `'overlap`); Compare is then `==` and the value,
  /// whichever way it is written, and `!=` is its test not holding.
  std::string Equal;
};

/// The value of an integer or plain string constant, written one way
/// (`-1`, `'abc`); empty for anything else.
std::string equalityValue(TSNode N, const SourceFile &F) {
  N = unparen(N);
  bool Minus = false;
  if (is(N, "unary_operator") && F.text(field(N, "operator")) == "-") {
    Minus = true;
    N = unparen(field(N, "argument"));
  }
  if (is(N, "integer")) {
    int64_t V = 0;
    if (F.text(N).getAsInteger(0, V))
      return "";
    return std::to_string(Minus ? -V : V);
  }
  if (Minus || !is(N, "string"))
    return "";
  llvm::StringRef Text = plainString(N, F);
  return Text.data() ? "'" + Text.str() : "";
}

/// A constant a comparison may test a value against.
bool constantOperand(TSNode N) {
  N = unparen(N);
  if (is(N, "unary_operator"))
    N = unparen(field(N, "argument"));
  return is(N, "integer") || is(N, "float") || is(N, "true") ||
         is(N, "false") || is(N, "string");
}

std::optional<Test> testOf(TSNode Cond, const SourceFile &F) {
  Cond = unparen(Cond);
  if (is(Cond, "not_operator")) {
    auto T = testOf(field(Cond, "argument"), F);
    if (T)
      T->Holds = !T->Holds;
    return T;
  }
  if (is(Cond, "identifier") || is(Cond, "attribute"))
    return Test{Cond, true, true, "", ""};
  if (!is(Cond, "comparison_operator"))
    return std::nullopt;
  std::vector<TSNode> Operands = children(Cond);
  if (Operands.size() != 2)
    return std::nullopt;
  // `n > 1` tested twice takes the same branch both times.
  if (constantOperand(Operands[1]) && (is(unparen(Operands[0]), "identifier") ||
                                       is(unparen(Operands[0]), "attribute"))) {
    Test T{unparen(Operands[0]), true, true, "", ""};
    std::string Op = operatorBetween(Cond, Operands[0], Operands[1], F);
    T.Compare = Op + F.text(Operands[1]).str();
    if (Op == "==" || Op == "!=") {
      T.Equal = equalityValue(Operands[1], F);
      if (!T.Equal.empty()) {
        T.Compare = "==" + T.Equal;
        T.Holds = Op == "==";
      }
    }
    return T;
  }
  if (!is(Operands[1], "none"))
    return std::nullopt;
  std::string Norm = operatorBetween(Cond, Operands[0], Operands[1], F);
  Test T{unparen(Operands[0]), false, true, "", ""};
  if (Norm == "isnot" || Norm == "!=")
    return T;
  if (Norm == "is" || Norm == "==") {
    T.Holds = false;
    return T;
  }
  return std::nullopt;
}

} // namespace

bool Builder::stableName(TSNode Id) {
  llvm::StringRef Name = F.text(Id);
  const Scope *Owner = St->S->owner(Name);
  if (!Owner)
    return false;
  if (Owner->K == Scope::Module && Root->K != Scope::Module) {
    auto B = Owner->Bindings.find(Name);
    return B != Owner->Bindings.end() && B->second.size() == 1 &&
           !ts_node_is_null(B->second[0]) && !Owner->Augmented.contains(Name) &&
           !X->globalMayChange(Name);
  }
  if (Owner != St->S || St->S != Root || St->SiteScope != 0 ||
      Owner->Augmented.contains(Name) || Owner->Elements.count(Name))
    return false;
  auto B = Owner->Bindings.find(Name);
  bool Param =
      llvm::any_of(Owner->Params, [&](TSNode P) { return F.text(P) == Name; });
  if (Param)
    return B == Owner->Bindings.end();
  return B != Owner->Bindings.end() && B->second.size() == 1 &&
         !ts_node_is_null(B->second[0]) &&
         !inLoopBelow(B->second[0], Owner->Node);
}

std::optional<Assumption> Builder::whenTrue(TSNode Cond) {
  if (auto Parity = parityTest(Cond))
    return Parity; // LoopCounters.cpp
  auto T = testOf(Cond, F);
  if (!T)
    return orderingChoice(Cond);
  VarId V = testVar(T->Of, !T->Compare.empty() ? "compare " + T->Compare + ": "
                           : T->Truth          ? "truth of "
                                               : "not None: ");
  if (V == NoVar)
    return std::nullopt;
  return Assumption{V, T->Holds};
}

// A torch.device's type and index: fixed once the device is made. (A
// tensor's placement tests, `t.is_cuda`, are edge facts of their own:
// hostWhenTested.)
static bool isMetadataAttribute(llvm::StringRef Attr) {
  return Attr == "type" || Attr == "index";
}

// The method's object (`self` of a def in a class body).
static bool isSelfParameter(const Scope &S, TSNode Name, const SourceFile &F) {
  return S.K == Scope::Def && !S.Params.empty() &&
         F.text(Name) == F.text(S.Params.front()) &&
         !ts_node_is_null(classOf(S.Node));
}

VarId Builder::testVar(TSNode Of, const std::string &Kind) {
  // The variable standing for the test: per name (or attribute of the
  // method's object) and kind of test; never named in messages.
  std::string Key;
  const void *Owner = nullptr;
  if (is(Of, "identifier")) {
    if (!stableName(Of))
      return NoVar;
    Key = F.text(Of).str();
    Owner = St->S->owner(F.text(Of));
  } else if (TSNode Object = unparen(field(Of, "object"));
             is(Object, "identifier") && stableName(Object) &&
             !isSelfParameter(*St->S, Object, F) &&
             isMetadataAttribute(F.text(field(Of, "attribute")))) {
    // `device.type` of a name that holds one value: what no code changes.
    Key = F.text(Of).str();
    Owner = St->S->owner(F.text(Object));
  } else {
    const Scope &S = *St->S;
    bool OwnSelf =
        S.K == Scope::Def && !S.Params.empty() && is(Object, "identifier") &&
        F.text(Object) == F.text(S.Params.front()) &&
        !S.Bindings.count(F.text(Object)) && !ts_node_is_null(classOf(S.Node));
    llvm::StringRef Attr = F.text(field(Of, "attribute"));
    if (!OwnSelf || !X->setOnlyAtConstruction(classOf(S.Node), Attr))
      return NoVar;
    // The method's object: the one followed here, or the analysed
    // method's own.
    if (St->Self)
      Owner = St->Self;
    else if (St->S == Root)
      Owner = Root;
    else
      return NoVar;
    Key = "self." + Attr.str();
  }
  Key = Kind + Key;
  auto [It, New] = Synthetic.try_emplace({Key, Owner}, NoVar);
  if (New)
    It->second = newSyntheticVar(Key, VarClass::Other);
  return It->second;
}

EdgeCondition Builder::otherValuesFail(TSNode Cond) {
  auto T = testOf(Cond, F);
  EdgeCondition Others;
  if (!T || T->Equal.empty())
    return Others;
  // The values the scope's own code compares the same name with.
  llvm::StringRef Of = F.text(T->Of);
  std::set<std::string> Seen{T->Equal};
  ownCode(field(St->S->Node, "body"), [&](TSNode X) {
    if (!is(X, "comparison_operator"))
      return;
    auto U = testOf(X, F);
    if (!U || U->Equal.empty() || F.text(U->Of) != Of ||
        !Seen.insert(U->Equal).second)
      return;
    VarId V = testVar(U->Of, "compare " + U->Compare + ": ");
    if (V != NoVar)
      Others.push_back(Assumption{V, false});
  });
  return Others;
}

std::optional<Assumption> Builder::orderingChoice(TSNode Cond) {
  Cond = unparen(Cond);
  TSNode If = ts_node_parent(Cond);
  while (is(If, "parenthesized_expression"))
    If = ts_node_parent(If);
  if ((!is(If, "if_statement") && !is(If, "elif_clause")) ||
      (!is(Cond, "call") && !is(Cond, "comparison_operator")) ||
      St->S != Root || St->SiteScope != 0 || inLoopBelow(If, Root->Node))
    return std::nullopt;
  // An arm that orders streams: a stream, event or tensor stream method
  // (record_stream, wait_event, record_event, wait_stream, synchronize) or
  // a stream context.
  TSNode Stmt = is(If, "elif_clause") ? ts_node_parent(If) : If;
  bool Orders = false;
  ownCode(Stmt, [&](TSNode X) {
    if (!is(X, "call") || Orders)
      return;
    TSNode Fn = field(X, "function");
    Orders = (is(Fn, "attribute") &&
              isStreamMethod(F.text(field(Fn, "attribute")))) ||
             streamContextCall(X, F, I);
  });
  if (!Orders)
    return std::nullopt;
  auto [It, New] = Synthetic.try_emplace({"condition", Cond.id}, NoVar);
  if (New)
    It->second = newSyntheticVar("condition", VarClass::Other);
  return Assumption{It->second, true};
}

std::optional<bool> Builder::constantCondition(TSNode Cond) {
  if (auto Counter = counterConstant(Cond))
    return Counter; // LoopCounters.cpp
  Cond = unparen(Cond);
  // A helper's flag that its call gives as True or False, and that the
  // helper never rebinds: `if enabled:` of `timed(enabled=False)`.
  if (is(Cond, "identifier") && St && !St->Constants.empty()) {
    llvm::StringRef Name = F.text(Cond);
    auto C = St->Constants.find(Name);
    if (C != St->Constants.end() && St->S->owner(Name) == St->S &&
        !St->S->Bindings.count(Name) && !St->S->Augmented.count(Name))
      return C->second;
  }
  if (is(Cond, "not_operator")) {
    auto V = constantCondition(field(Cond, "argument"));
    return V ? std::optional<bool>(!*V) : std::nullopt;
  }
  if (!is(Cond, "call") || !children(field(Cond, "arguments")).empty())
    return std::nullopt;
  return cudaPredicate(I.qualify(field(Cond, "function")));
}

void Builder::optionalStreamParameters(const Scope &S) {
  for (TSNode P : S.Params) {
    VarId V = varOf(F.text(P));
    if (V == NoVar || IR->var(V).Class != VarClass::Stream)
      continue;
    // The def's first test of it against None (`if p is not None:`).
    TSNode Test{};
    ownCode(field(S.Node, "body"), [&](TSNode X) {
      if (!ts_node_is_null(Test) || !is(X, "if_statement"))
        return;
      auto T = testOf(field(X, "condition"), F);
      if (T && !T->Truth && is(T->Of, "identifier") &&
          F.text(T->Of) == F.text(P))
        Test = field(X, "condition");
    });
    if (ts_node_is_null(Test) || !whenTrue(Test))
      continue;
    auto IsNone = [&] {
      emit(site(SiteKind::Other, Test),
           fact::BindStream{V, StreamRef::current(), /*None=*/true});
    };
    auto Given = [] {};
    if (testOf(Test, F)->Holds)
      branchOn(Test, Given, IsNone);
    else
      branchOn(Test, IsNone, Given);
  }
}

std::optional<Assumption> Builder::stateTest(TSNode Cond) {
  Cond = unparen(Cond);
  auto VarOfClass = [&](TSNode N, VarClass Want) {
    N = unparen(N);
    if (!is(N, "identifier"))
      return NoVar;
    VarId V = varOf(F.text(N));
    return V != NoVar && IR->var(V).Class == Want ? V : NoVar;
  };
  // `a == b`, `a is b`, `a != b`, `a is not b` of two stream names.
  if (is(Cond, "comparison_operator")) {
    std::vector<TSNode> Operands = children(Cond);
    if (Operands.size() == 2) {
      VarId A = VarOfClass(Operands[0], VarClass::Stream);
      VarId B = VarOfClass(Operands[1], VarClass::Stream);
      if (A != NoVar && B != NoVar) {
        std::string Op = operatorBetween(Cond, Operands[0], Operands[1], F);
        if (Op == "==" || Op == "is" || Op == "!=" || Op == "isnot") {
          Assumption S;
          S.On = Assumption::Test::SameStream;
          S.Var = A;
          S.Other = B;
          S.Value = Op == "==" || Op == "is";
          return S;
        }
      }
    }
  }
  // `s`, `not s`, `s is None`, `s is not None` of a stream or event name:
  // a stream or event object is always true (neither defines __bool__ or
  // __len__), so its truth is that it is not None.
  auto T = testOf(Cond, F);
  if (!T || !T->Compare.empty() || !is(T->Of, "identifier"))
    return std::nullopt;
  Assumption S;
  if ((S.Var = VarOfClass(T->Of, VarClass::Stream)) != NoVar)
    S.On = Assumption::Test::StreamIsNone;
  else if ((S.Var = VarOfClass(T->Of, VarClass::Event)) != NoVar)
    S.On = Assumption::Test::EventIsNone;
  else
    return std::nullopt;
  S.Value = !T->Holds;
  return S;
}

bool Builder::testsAnything(TSNode Cond) {
  Cond = unparen(Cond);
  if (is(Cond, "not_operator"))
    return testsAnything(field(Cond, "argument"));
  if (is(Cond, "boolean_operator"))
    return testsAnything(field(Cond, "left")) ||
           testsAnything(field(Cond, "right"));
  return whenTrue(Cond) || constantCondition(Cond) || stateTest(Cond);
}

void Builder::markBranch(unsigned Branch, TSNode Cond) {
  Block &B = St->B.Blocks[Branch];
  if (B.Succs.size() != 2)
    return;
  if (auto Known = constantCondition(Cond)) {
    // The edge not taken is not there (its block is unreachable).
    B.Succs.erase(B.Succs.begin() + (*Known ? 1 : 0));
    return;
  }
  EdgeCondition True, False;
  if (auto A = whenTrue(Cond)) {
    A->At = site(SiteKind::Other, Cond);
    Out->Conditions[A->At] = F.text(unparen(Cond)).str();
    Assumption Else = *A;
    Else.Value = !A->Value;
    A->CondHolds = true;
    // `x is None` of a tensor name: x holds no tensor on that edge.
    auto T = testOf(Cond, F);
    VarId Tensor = NoVar;
    if (T && !T->Truth && is(T->Of, "identifier")) {
      VarId V = varOf(F.text(T->Of));
      if (V != NoVar && IR->var(V).Class == VarClass::Tensor)
        Tensor = V;
    }
    (T && T->Holds ? Else : *A).NoneTensor = Tensor;
    True.push_back(*A);
    False.push_back(Else);
    // `x == 1` holds: `x == 2` and `x != 3` of the same x are decided too.
    // A finding on that path tells of this test, as it is on that edge.
    for (Assumption O : otherValuesFail(Cond)) {
      O.At = A->At;
      O.CondHolds = T && T->Holds;
      (T && T->Holds ? True : False).push_back(O);
    }
  }
  // `isinstance(x, tuple)` of a tensor name: x is no tensor on the true
  // edge (a dict of several kinds, told apart); `isinstance(x,
  // torch.Tensor)`: on the false edge.
  if (auto [Var, OnTrue] = notTensorEdge(Cond); Var != NoVar) {
    Assumption A;
    A.NoneTensor = Var;
    (OnTrue ? True : False).push_back(A);
    if (True.empty())
      True.push_back(Assumption());
    if (False.empty())
      False.push_back(Assumption());
  }
  if (auto S = stateTest(Cond)) {
    // (The site ties it to the remembered test of the same condition.)
    S->At = True.empty() ? NoSite : True.front().At;
    Assumption Else = *S;
    Else.Value = !S->Value;
    True.push_back(*S);
    False.push_back(Else);
  }
  if (!True.empty())
    B.SuccConds = {True, False};
}

std::pair<VarId, bool> Builder::notTensorEdge(TSNode Cond) {
  Cond = unparen(Cond);
  if (!is(Cond, "call") || F.text(field(Cond, "function")) != "isinstance")
    return {NoVar, false};
  std::vector<TSNode> Args = children(field(Cond, "arguments"));
  if (Args.size() != 2 || !is(unparen(Args[0]), "identifier"))
    return {NoVar, false};
  VarId V = varOf(F.text(unparen(Args[0])));
  if (V == NoVar || IR->var(V).Class != VarClass::Tensor)
    return {NoVar, false};
  // Builtins no tensor is an instance of.
  static const llvm::StringSet<> NotTensors = {
      "tuple", "list", "dict",  "set",  "frozenset", "str",
      "bytes", "int",  "float", "bool", "complex"};
  TSNode Type = unparen(Args[1]);
  std::vector<TSNode> Types =
      is(Type, "tuple") ? children(Type) : std::vector<TSNode>{Type};
  bool AllBuiltins = !Types.empty() && llvm::all_of(Types, [&](TSNode T) {
    return is(unparen(T), "identifier") &&
           NotTensors.contains(F.text(unparen(T))) &&
           !St->S->owner(F.text(unparen(T)));
  });
  if (AllBuiltins)
    return {V, true};
  if (Types.size() == 1 && I.qualify(Type) == "torch.Tensor")
    return {V, false};
  return {NoVar, false};
}

std::pair<unsigned, unsigned> Builder::branchBlocks(TSNode Cond) {
  Cond = unparen(Cond);
  if (is(Cond, "not_operator")) {
    auto [Holds, Fails] = branchBlocks(field(Cond, "argument"));
    return {Fails, Holds};
  }
  // `a and b`, `a or b`: b is tested only on the edge of a that does not
  // decide, so each edge carries what each test told (a conjunction on
  // the way to the block where both hold).
  if (is(Cond, "boolean_operator")) {
    TSNode Op = field(Cond, "operator");
    bool And = !ts_node_is_null(Op) && F.text(Op) == "and";
    auto [LeftHolds, LeftFails] = branchBlocks(field(Cond, "left"));
    St->Cur = And ? LeftHolds : LeftFails;
    auto [RightHolds, RightFails] = branchBlocks(field(Cond, "right"));
    unsigned Meet = newBlock();
    edge(And ? LeftFails : LeftHolds, Meet);
    edge(And ? RightFails : RightHolds, Meet);
    return And ? std::pair{RightHolds, Meet} : std::pair{Meet, RightFails};
  }
  truthTest(Cond);
  unsigned Branch = St->Cur;
  unsigned Holds = newBlock(), Fails = newBlock();
  edge(Branch, Holds);
  edge(Branch, Fails);
  markBranch(Branch, Cond);
  // `if t.is_cuda:`: on the edge where t is on the host, its device work
  // is none (the model's placement tests; a tensor whose allocation the
  // analysis followed keeps its place).
  TSNode Object = is(Cond, "attribute") ? field(Cond, "object") : TSNode{};
  if (std::optional<bool> HostWhen =
          is(Object, "identifier") || is(Object, "attribute")
              ? hostWhenTested(F.text(field(Cond, "attribute")))
              : std::nullopt) {
    Value T = expr(Object);
    if (T.Class == VarClass::Tensor && T.Tensor) {
      St->Cur = *HostWhen ? Holds : Fails;
      emit(site(SiteKind::Other, Cond), fact::HostByUse{T.Tensor, false});
      St->Cur = Branch;
    }
  }
  return {Holds, Fails};
}

void Builder::branchOn(TSNode Cond, const std::function<void()> &Then,
                       const std::function<void()> &Else) {
  auto [Holds, Fails] = branchBlocks(Cond);
  unsigned After = newBlock();
  St->Cur = Holds;
  Then();
  edge(St->Cur, After);
  St->Cur = Fails;
  Else();
  edge(St->Cur, After);
  St->Cur = After;
}

} // namespace streamsafe::py
