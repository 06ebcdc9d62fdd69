//===--- Helpers.cpp - Same-file helpers and classes run in place ---------===//
//
// As the Clang front end inlines a helper defined in the translation unit
// (docs/design.md, "Same-file helpers run in place"), a call of a def of
// this file that uses streams runs its body here, in the caller's state:
// its parameters are bound to the arguments (a tensor, a stream; an event
// parameter is the caller's event), its sites are its own (Site::Scope),
// and what it returns (a tensor, a stream) is the call's value. The body
// is lowered once per def, object and set of argument classes, at most
// MaxInlinedCallees of them; the solver bounds nesting and recursion.
//
// `Cls(...)` of a class of this file makes an object whose __init__ runs
// in place; its stream and event attributes (`self.side =
// torch.cuda.Stream()`) are followed as variables of that object while its
// methods run, and methods called on the variable that names it run in
// place on it. Used as `with Cls(...):`, its __enter__ runs at the entry
// and its __exit__ at every exit of the body, so a class that saves the
// stream, sets another and restores the saved one is a guard. A
// @contextlib.contextmanager generator runs the same way, its code before
// the yield at the entry and after it at every exit.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Helpers.h"
#include "lib/model/Arguments.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

/// The parameter names of a def, in order.
std::vector<std::string> paramNames(TSNode Def, const SourceFile &F) {
  std::vector<std::string> Names;
  for (TSNode P : children(field(Def, "parameters"))) {
    TSNode Name = P;
    if (is(P, "typed_parameter"))
      Name = children(P).empty() ? P : children(P)[0];
    else if (is(P, "default_parameter") || is(P, "typed_default_parameter"))
      Name = field(P, "name");
    // *args, **kwargs, `*`, `/`: what follows is not positional.
    if (!is(Name, "identifier"))
      break;
    Names.push_back(F.text(Name).str());
  }
  return Names;
}

bool decorated(TSNode Def) {
  return is(ts_node_parent(Def), "decorated_definition");
}

/// The class a def is a method of (null: none).
TSNode classOf(TSNode Def) {
  TSNode P = ts_node_parent(Def);
  if (is(P, "decorated_definition"))
    P = ts_node_parent(P);
  if (!is(P, "block"))
    return TSNode{};
  P = ts_node_parent(P);
  return is(P, "class_definition") ? P : TSNode{};
}

/// The undecorated method \p Name defined in \p Class's body (null: none).
TSNode methodOf(TSNode Class, llvm::StringRef Name, const SourceFile &F) {
  for (TSNode C : children(field(Class, "body")))
    if (is(C, "function_definition") && F.text(field(C, "name")) == Name)
      return C;
  return TSNode{};
}

std::vector<TSNode> methodsWithSelf(TSNode Class, const SourceFile &F) {
  std::vector<TSNode> Out;
  for (TSNode M : children(field(Class, "body"))) {
    if (is(M, "decorated_definition"))
      M = field(M, "definition");
    if (is(M, "function_definition") && !paramNames(M, F).empty())
      Out.push_back(M);
  }
  return Out;
}

/// Whether a def's own code uses the stream API (the model's stream
/// effects, as the C++ pre-scan mentionsStreamApis asks): a stream, event
/// or guard API, a stream or event method, a non_blocking copy.
static bool scanForStreams(TSNode Def, const SourceFile &F, const Imports &I) {
  bool Found = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (Found)
      return;
    if (is(X, "keyword_argument") &&
        F.text(field(X, "name")) == arguments::NonBlocking) {
      Found = true;
      return;
    }
    if (!is(X, "call"))
      return;
    TSNode Fn = field(X, "function");
    if (usesStreams(apiOf(I.qualify(Fn)))) {
      Found = true;
      return;
    }
    if (is(Fn, "attribute"))
      Found = isStreamMethod(F.text(field(Fn, "attribute")));
  });
  return Found;
}

/// The stream and event attributes of \p Class's objects: `self.x = v` in
/// its methods, every v a stream (or every v an event).
static llvm::StringMap<VarClass> scanAttributes(TSNode Class,
                                                const Scope &Module,
                                                const SourceFile &F,
                                                const Imports &I) {
  llvm::StringMap<std::optional<VarClass>> Seen;
  for (TSNode M : methodsWithSelf(Class, F)) {
    std::vector<std::string> Params = paramNames(M, F);
    auto S = makeScope(M, Scope::Def, &Module, F, I);
    ownCode(field(M, "body"), [&](TSNode X) {
      bool Assign = is(X, "assignment");
      if (!Assign && !is(X, "augmented_assignment"))
        return;
      std::vector<TSNode> Targets{unparen(field(X, "left"))};
      if (is(Targets[0], "pattern_list") || is(Targets[0], "tuple_pattern"))
        Targets = children(Targets[0]);
      for (TSNode T : Targets) {
        if (!is(T, "attribute") || F.text(field(T, "object")) != Params[0])
          continue;
        // `self.x = None` says nothing of the class x holds otherwise.
        TSNode Value = Assign && Targets.size() == 1
                           ? withoutNone(field(X, "right"))
                           : field(X, "right");
        if (Assign && Targets.size() == 1 && ts_node_is_null(Value))
          continue;
        VarClass C = Assign && Targets.size() == 1
                         ? classOfExpr(Value, *S, F, I)
                         : VarClass::Other;
        auto &Slot = Seen[F.text(field(T, "attribute"))];
        Slot = !Slot || *Slot == C ? C : VarClass::Other;
      }
    });
  }
  llvm::StringMap<VarClass> Out;
  for (const auto &E : Seen)
    if (*E.second == VarClass::Stream || *E.second == VarClass::Event ||
        *E.second == VarClass::Tensor)
      Out[E.getKey()] = *E.second;
  return Out;
}

/// The yield statement of a @contextmanager generator and its statements
/// before and after it: the yield is directly in its body, or in the body
/// of a try directly in it (whose finally block then runs after it). Null:
/// another shape (no yield, several, or nested deeper).
std::vector<TSNode> withValues(TSNode With) {
  std::vector<TSNode> Values;
  for (TSNode C : children(With))
    if (is(C, "with_clause"))
      for (TSNode Item : children(C)) {
        TSNode Value = field(Item, "value");
        if (is(Value, "as_pattern") && !children(Value).empty())
          Value = children(Value)[0];
        Values.push_back(unparen(Value));
      }
  return Values;
}

TSNode splitAtYield(TSNode Def, std::vector<TSNode> &Before,
                    std::vector<TSNode> &After, const Imports &I) {
  // `with torch.cuda.stream(s): ... yield ...`: the guard is held across
  // the yield.
  auto StreamsOnly = [&](TSNode With) {
    std::vector<TSNode> Values = withValues(With);
    return !Values.empty() && llvm::all_of(Values, [&](TSNode V) {
      return is(V, "call") &&
             apiOf(I.qualify(field(V, "function"))) == PyApi::StreamContext;
    });
  };
  unsigned Yields = 0;
  ownCode(field(Def, "body"), [&](TSNode X) { Yields += is(X, "yield"); });
  if (Yields != 1)
    return TSNode{};
  auto IsYield = [](TSNode S) {
    return is(S, "expression_statement") && !children(S).empty() &&
           is(children(S)[0], "yield");
  };
  std::vector<TSNode> Body = children(field(Def, "body"));
  for (size_t K = 0; K < Body.size(); ++K) {
    if (IsYield(Body[K])) {
      Before.assign(Body.begin(), Body.begin() + K);
      After.assign(Body.begin() + K + 1, Body.end());
      return Body[K];
    }
    if (is(Body[K], "with_statement") && StreamsOnly(Body[K])) {
      for (TSNode S : children(field(Body[K], "body"))) {
        if (!IsYield(S))
          continue;
        Before.assign(Body.begin(), Body.begin() + K + 1);
        After.assign(Body.begin() + K, Body.end());
        return S;
      }
      continue;
    }
    if (!is(Body[K], "try_statement"))
      continue;
    std::vector<TSNode> Try = children(field(Body[K], "body"));
    for (size_t J = 0; J < Try.size(); ++J) {
      if (!IsYield(Try[J]))
        continue;
      Before.assign(Body.begin(), Body.begin() + K);
      Before.insert(Before.end(), Try.begin(), Try.begin() + J);
      After.assign(Try.begin() + J + 1, Try.end());
      for (TSNode C : children(Body[K]))
        if (is(C, "finally_clause"))
          for (TSNode B : children(C))
            if (is(B, "block")) {
              std::vector<TSNode> Fin = children(B);
              After.insert(After.end(), Fin.begin(), Fin.end());
            }
      After.insert(After.end(), Body.begin() + K + 1, Body.end());
      return Try[J];
    }
  }
  return TSNode{};
}

//===-- What the file defines, asked once per file ------------------------===//

HelperIndex::HelperIndex(const SourceFile &F, const Imports &I) : F(F), I(I) {
  for (TSNode C : children(F.root()))
    if (is(C, "class_definition")) {
      auto [It, New] = ModuleClasses.try_emplace(F.text(field(C, "name")), C);
      if (!New)
        It->second = TSNode{}; // defined twice: which one runs is not known
    }
  // `class D(B): def m(...)`: B's m may be D's on a D object.
  std::vector<TSNode> Work{F.root()};
  while (!Work.empty()) {
    TSNode N = Work.back();
    Work.pop_back();
    if (is(N, "class_definition"))
      Classes.push_back(N);
    if (is(N, "class_definition"))
      for (TSNode B : children(field(N, "superclasses")))
        for (TSNode M : children(field(N, "body"))) {
          if (is(M, "decorated_definition"))
            M = field(M, "definition");
          if (is(M, "function_definition"))
            Overrides.insert(F.text(B).str() + "." +
                             F.text(field(M, "name")).str());
        }
    for (TSNode C : children(N))
      Work.push_back(C);
  }
}

TSNode HelperIndex::moduleClass(llvm::StringRef Name) const {
  return ModuleClasses.lookup(Name);
}

TSNode HelperIndex::methodIn(TSNode Class, llvm::StringRef Name) const {
  // Nearest first; past a base that is not a class of the file, the method
  // may be that base's.
  for (TSNode C : lineage(Class)) {
    TSNode M = methodOf(C, Name, F);
    if (!ts_node_is_null(M))
      return M;
    for (TSNode B : children(field(C, "superclasses")))
      if (ts_node_is_null(baseClass(B)) && F.text(B) != "object")
        return TSNode{};
  }
  return TSNode{};
}

bool HelperIndex::overridden(TSNode Class, llvm::StringRef Method) const {
  return Overrides.contains(F.text(field(Class, "name")).str() + "." +
                            Method.str());
}

bool HelperIndex::usesStreams(TSNode Def) {
  auto [It, New] = Streams.try_emplace(Def.id, false);
  if (New)
    It->second = scanForStreams(Def, F, I);
  return It->second;
}

bool HelperIndex::waitsForHost(TSNode Def) {
  auto [It, New] = HostWaits.try_emplace(Def.id, false);
  if (!New)
    return It->second;
  bool Found = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    TSNode Fn = field(X, "function");
    Found |= is(X, "call") && is(Fn, "attribute") &&
             isHostWaitEffect(tensorMethod(F.text(field(Fn, "attribute"))));
  });
  return HostWaits[Def.id] = Found;
}

const llvm::StringMap<VarClass> &
HelperIndex::attributeClasses(TSNode Class, const Scope &Module) {
  auto [It, New] = Attributes.try_emplace(Class.id);
  if (New)
    It->second = scanAttributes(Class, Module, F, I);
  return It->second;
}

bool Builder::maySetForCaller(const Scope &S) const {
  if (S.K != Scope::Def)
    return false;
  llvm::StringRef Name = F.text(field(S.Node, "name"));
  if (!ts_node_is_null(classOf(S.Node)) &&
      (Name == "__enter__" || Name == "__exit__" || Name == "__aenter__" ||
       Name == "__aexit__"))
    return true;
  // A thread's body: the stream it sets is its thread's. A section's
  // opener: its partner restores.
  if (X->threadTarget(S.Node) || X->opensSection(S.Node))
    return true;
  // A forwarding setter: every set_stream sets a parameter it was given
  // (its caller chose the stream, and restoring it is the caller's job;
  // the callers in this file run it in place and are judged).
  bool Sets = false;
  return forwardsSets(S.Node, *S.ModuleScope, 0, Sets) && Sets;
}

bool Builder::forwardsSets(TSNode Def, const Scope &Module, unsigned Depth,
                           bool &Sets) const {
  // Through a forwarding setter of the file (`def use(s): set_stream(s)`),
  // a few calls deep.
  if (Depth > 3) {
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

std::optional<BodyId>
Builder::helperBody(TSNode Def, const Scope *Outer, const Instance *Self,
                    const llvm::StringMap<VarClass> &Classes,
                    const llvm::StringMap<VarId> &Events, int Part) {
  std::vector<unsigned> Shape;
  for (const std::string &P : paramNames(Def, F)) {
    Shape.push_back(unsigned(Classes.lookup(P)));
    auto E = Events.find(P);
    Shape.push_back(E == Events.end() ? NoVar : E->second);
  }
  HelperRuns::Key ScopeKey{Def.id, Self, Shape};
  Shape.push_back(Part);
  bool New = false;
  std::optional<BodyId> &Made =
      Runs.body(HelperRuns::Key{Def.id, Self, std::move(Shape)}, New);
  if (!New)
    return Made;
  if (Runs.helpers() >= MaxInlinedCallees)
    return std::nullopt;
  // The parts of a generator share its scope (its variables) and number.
  bool NewScope = false;
  auto [S, Number] = Runs.scope(
      ScopeKey,
      [&] { return makeScope(Def, Scope::Def, Outer, F, I, &Classes); },
      NewScope);
  // An event parameter is the caller's event: recorded or waited on in
  // the helper, it is recorded or waited on for the caller.
  if (NewScope)
    for (const auto &E : Events)
      Vars[{S, E.getKey().str()}] = E.second;
  PendingBody P;
  P.S = S;
  IR->Bodies.emplace_back();
  P.Id = IR->Bodies.size() - 1;
  P.SiteScope = Number;
  if (const ProjectModule *M =
          Modules && !F.owns(Def) ? Modules->moduleOf(Def) : nullptr) {
    P.Index = M->X.get();
    Out->ScopeFiles[P.SiteScope] = M->F.get();
  }
  P.Self = Self;
  if (Part) {
    std::vector<TSNode> Before, After;
    TSNode Yield = splitAtYield(Def, Before, After, I);
    P.Part = Part == 1 ? Before : After;
    P.Yield = Yield;
    P.PartNo = Part;
    if (P.Part.empty())
      P.Part.push_back(Yield); // lowers to nothing
    P.KeepsLocals = Part == 1;
  }
  // What its returns give: a tensor or a stream (each a variable of the
  // caller's, which the return binds).
  bool Tensor = false, Stream = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (!is(X, "return_statement"))
      return;
    for (TSNode C : children(X)) {
      VarClass K = classOfExpr(C, *S, F, I);
      // `return self.buf`: the class of the object's attribute.
      TSNode R = unparen(C);
      if (Self && is(R, "attribute") && !S->Params.empty() &&
          F.text(unparen(field(R, "object"))) == F.text(S->Params[0]))
        if (auto A = Self->Attrs.find(F.text(field(R, "attribute")));
            A != Self->Attrs.end())
          K = IR->var(A->second).Class;
      Tensor |= K == VarClass::Tensor;
      Stream |= K == VarClass::Stream;
    }
  });
  std::string Name = F.text(field(Def, "name")).str() + "()";
  auto Synthetic = [&](VarClass C) {
    Variable V;
    V.Name = Name;
    V.Class = C;
    V.Synthetic = true;
    IR->Vars.push_back(std::move(V));
    return VarId(IR->Vars.size() - 1);
  };
  if (Tensor && !Stream && !Part)
    P.ReturnTensor = Synthetic(VarClass::Tensor);
  if (Stream && !Tensor && !Part)
    P.ReturnStream = Synthetic(VarClass::Stream);
  Runs.queueHelper(P);
  Made = P.Id;
  return P.Id;
}

Builder::ArgumentMatch Builder::matchArguments(TSNode Def, const Args &A,
                                               bool Method) {
  ArgumentMatch M;
  std::vector<std::string> Params = paramNames(Def, F);
  unsigned First = Method ? 1 : 0;
  // Which argument each parameter gets, and what it holds (syntactically:
  // the arguments are lowered once, after the body is chosen).
  for (size_t K = 0; K < A.Positional.size(); ++K) {
    TSNode P = A.Positional[K];
    if (First + K < Params.size() && !is(P, "list_splat") &&
        !is(P, "dictionary_splat"))
      M.Bound.push_back({Params[First + K], P});
    else
      M.Extra.push_back(P);
  }
  for (const auto &[K, P] : A.Keywords) {
    if (llvm::is_contained(Params, K.str()))
      M.Bound.push_back({K.str(), P});
    else
      M.Extra.push_back(P);
  }
  for (const auto &[Name, P] : M.Bound) {
    VarClass C = classOfExpr(P, *St->S, F, I);
    M.Classes[Name] = C;
    M.GivenStreams |= C == VarClass::Stream || C == VarClass::Event;
    if (C == VarClass::Event && is(unparen(P), "identifier"))
      if (VarId V = varOf(F.text(unparen(P))); V != NoVar)
        M.Events[Name] = V;
  }
  return M;
}

VarId Builder::paramVar(const Scope *S, const std::string &Name) {
  auto [It, New] = Vars.try_emplace({S, Name}, NoVar);
  VarClass C = S->Locals.lookup(Name);
  if (New && C != VarClass::Other) {
    Variable V;
    V.Name = Name;
    V.Class = C;
    IR->Vars.push_back(std::move(V));
    It->second = IR->Vars.size() - 1;
  }
  return It->second;
}

llvm::SmallVector<VarId, 4> Builder::bindArguments(const ArgumentMatch &M,
                                                   const Scope *Callee,
                                                   SiteId At, bool Escapes) {
  llvm::SmallVector<VarId, 4> Unbind;
  for (const auto &[Name, P] : M.Bound) {
    Value V = expr(P);
    VarId Param = paramVar(Callee, Name);
    if (Escapes || Param == NoVar || IR->var(Param).Class != V.Class)
      escape(V, P); // not followed there, or kept beyond this function
    if (Param == NoVar || IR->var(Param).Class != V.Class)
      continue;
    switch (V.Class) {
    case VarClass::Tensor:
      emit(At, fact::BindTensor{Param, V.Tensor});
      Unbind.push_back(Param);
      break;
    case VarClass::Stream:
      emit(At, fact::BindStream{Param, V.Stream});
      break;
    case VarClass::Event:
      if (V.Event != Param)
        emit(At, fact::BindEvent{Param, V.FreshEvent});
      break;
    default:
      break;
    }
  }
  for (TSNode P : M.Extra)
    escape(expr(P), P);
  return Unbind;
}

bool Builder::runInPlace(TSNode Call, const Args &A, TSNode Def,
                         const Scope *Outer, const Instance *Self, bool Method,
                         Value &Result, llvm::StringRef CalleeName, int Part) {
  if (Method && paramNames(Def, F).empty())
    return false;
  ArgumentMatch M = matchArguments(Def, A, Method);
  // A parameter that gets no argument keeps its annotation's class (a
  // default value is not followed): it is not in Classes.
  // A helper of plain tensor ops matters where the stream may not be the
  // caller's: called with a tensor inside a `with` that sets the stream
  // (or captures), it runs in place.
  auto PlainOpsUnderStreamBlock = [&] {
    return llvm::any_of(St->Frames,
                        [](const Frame &Fr) {
                          return Fr.K == Frame::With && Fr.Guard != NoVar;
                        }) &&
           llvm::any_of(M.Classes, [](const auto &E) {
             return E.second == VarClass::Tensor;
           });
  };
  // A method of an object followed here shares its attributes with the
  // others (one forks, another joins or reads what the first wrote): it
  // runs in place even when it names no stream itself.
  if (!Self && !M.GivenStreams && !X->usesStreams(Def) &&
      !X->waitsForHost(Def) && !PlainOpsUnderStreamBlock())
    return false;
  std::optional<BodyId> Body =
      helperBody(Def, Outer, Self, M.Classes, M.Events, Part);
  if (!Body)
    return false;
  const PendingBody &H = Runs.helper(*Body);
  SiteId At = site(SiteKind::Other, Call);
  if (!CalleeName.empty())
    Out->Callees[At] = CalleeName.str();
  llvm::SmallVector<VarId, 4> Unbind =
      bindArguments(M, H.S, At, /*Escapes=*/false);
  if (Part == 1) {
    Runs.ExitPart = helperBody(Def, Outer, Self, M.Classes, M.Events, 2);
    // A generator's locals live from its code before the yield to its code
    // after it: bound here, so that what the first part binds stays.
    Unbind.clear();
    for (const auto &E : H.S->Locals) {
      if (E.second == VarClass::Other ||
          llvm::is_contained(paramNames(Def, F), E.getKey().str()))
        continue;
      VarId V = paramVar(H.S, E.getKey().str());
      if (E.second == VarClass::Tensor)
        emit(At, fact::BindTensor{V, TensorRef()});
      else if (E.second == VarClass::Stream)
        emit(At, fact::BindStream{V, StreamRef::unknown()});
      else if (E.second == VarClass::Event)
        emit(At, fact::BindEvent{V, false});
    }
    // So does what a `with torch.cuda.stream(s)` around the yield saved
    // (withStatement).
    TSNode With = ts_node_parent(ts_node_parent(H.Yield));
    if (!ts_node_is_null(H.Yield) && is(With, "with_statement"))
      for (TSNode V : withValues(With))
        emit(At, fact::BindStream{syntheticVar("", VarClass::Stream, V),
                                  StreamRef::unknown()});
  }
  if (H.ReturnTensor != NoVar)
    emit(At, fact::BindTensor{H.ReturnTensor, TensorRef()});
  if (H.ReturnStream != NoVar)
    emit(At, fact::BindStream{H.ReturnStream, StreamRef::unknown()});
  fact::Spawn S;
  S.Body = *Body;
  S.InPlace = true;
  S.Callee = true;
  emit(At, S);
  for (VarId V : Unbind)
    emit(At, fact::Unbind{V});
  Result = Value();
  Result.Node = Call;
  if (H.ReturnTensor != NoVar) {
    Result.Class = VarClass::Tensor;
    Result.Tensor = TensorRef::var(H.ReturnTensor);
  } else if (H.ReturnStream != NoVar) {
    Result.Class = VarClass::Stream;
    Result.Stream = StreamRef::var(H.ReturnStream);
  }
  return true;
}

bool Builder::helperCall(TSNode N, Value &Result) {
  TSNode Fn = field(N, "function");
  Args A = argsOf(N);
  if (is(Fn, "identifier")) {
    if (const Instance *O = newRecord(N)) {
      Result = Value();
      Result.Node = N;
      Result.Object = O;
      return true;
    }
    // Cls(args) of a class of this file: a new object, followed.
    const Scope *Owner = St->S->owner(F.text(Fn));
    TSNode Class = X->moduleClass(F.text(Fn));
    if (!ts_node_is_null(Class) && (!Owner || Owner->K == Scope::Module)) {
      const Instance *O = newObject(N, Class);
      if (!O)
        return false;
      Result = Value();
      Result.Node = N;
      Result.Object = O;
      return true;
    }
  }
  std::optional<CalleeDef> C = calleeDef(Fn);
  return C && runInPlace(N, A, C->Def, C->Outer, C->Self, C->Method, Result);
}

bool Builder::moduleHelperCall(TSNode N, const std::string &Qualified,
                               const Args &A, Value &Result) {
  if (!Modules)
    return false;
  // Seen from the file the call is in (a helper's module may import
  // another).
  const SourceFile *From = &F;
  if (!F.owns(N)) {
    const ProjectModule *Caller = Modules->moduleOf(N);
    if (!Caller)
      return false;
    From = Caller->F.get();
  }
  const ProjectModule *M = nullptr;
  TSNode Def = Modules->def(*From, Qualified, M);
  if (ts_node_is_null(Def) || !runsAsWritten(Def) ||
      !ts_node_is_null(classOf(Def)))
    return false;
  F.link(*M->F);
  I.link(*M->I);
  llvm::StringRef Name = llvm::StringRef(Qualified).rsplit('.').second;
  return runInPlace(N, A, Def, M->S.get(), nullptr, false, Result, Name);
}

bool Builder::runsAsWritten(TSNode Def) const {
  if (!decorated(Def))
    return true;
  // `@torch.no_grad()`, `@torch.inference_mode`: a mode, no stream.
  for (TSNode D : children(ts_node_parent(Def))) {
    if (!is(D, "decorator"))
      continue;
    std::vector<TSNode> C = children(D);
    TSNode Name = C.empty() ? TSNode{} : unparen(C[0]);
    if (is(Name, "call"))
      Name = field(Name, "function");
    if (ts_node_is_null(Name) || !isTransparentDecorator(I.qualify(Name)))
      return false;
  }
  return true;
}

std::optional<Builder::CalleeDef> Builder::calleeDef(TSNode Fn) {
  Fn = unparen(Fn);
  if (is(Fn, "identifier")) {
    // A def of this scope or an enclosing one, bound to nothing else.
    llvm::StringRef Name = F.text(Fn);
    for (const Scope *S = St->S; S; S = S->Parent) {
      auto It = S->Defs.find(Name);
      if (It != S->Defs.end()) {
        if (!runsAsWritten(It->second) || !ts_node_is_null(classOf(It->second)))
          return std::nullopt;
        return CalleeDef{It->second, S, nullptr, false};
      }
      if (S->Locals.count(Name))
        return std::nullopt;
    }
    return std::nullopt;
  }
  if (!is(Fn, "attribute"))
    return std::nullopt;
  TSNode Object = unparen(field(Fn, "object"));
  llvm::StringRef Method = F.text(field(Fn, "attribute"));
  // x.method of an object of a class of this file that x names.
  if (const Instance *O = objectNamed(Object)) {
    TSNode Def = methodOf(O->Class, Method, F);
    if (ts_node_is_null(Def))
      return std::nullopt;
    return CalleeDef{Def, St->S->ModuleScope, O, true};
  }
  // self.method in a method: the method of this class (unless a class of
  // the file overrides it), on the same object.
  if (St->S->K != Scope::Def || St->S->Params.empty())
    return std::nullopt;
  TSNode Class = classOf(St->S->Node);
  if (ts_node_is_null(Class) || !is(Object, "identifier") ||
      F.text(Object) != F.text(St->S->Params[0]) || decorated(St->S->Node))
    return std::nullopt;
  TSNode Def = X->methodIn(Class, Method);
  if (ts_node_is_null(Def) || X->overridden(Class, Method))
    return std::nullopt;
  return CalleeDef{Def, St->S->ModuleScope, St->Self, true};
}

} // namespace streamsafe::py
