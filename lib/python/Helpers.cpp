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

#include "lib/model/Arguments.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/ReturnClasses.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

std::optional<BodyId>
Builder::helperBody(TSNode Def, const Scope *Outer, const Instance *Self,
                    const llvm::StringMap<VarClass> &Classes,
                    const llvm::StringMap<VarId> &Events, int Part,
                    const llvm::StringMap<bool> *Constants) {
  std::vector<unsigned> Shape;
  for (const std::string &P : paramNames(Def, F)) {
    Shape.push_back(unsigned(Classes.lookup(P)));
    auto E = Events.find(P);
    Shape.push_back(E == Events.end() ? NoVar : E->second);
    // A flag given as written: a body of its own, its tests decided.
    auto C = Constants ? Constants->find(P) : llvm::StringMap<bool>::iterator();
    Shape.push_back(!Constants || C == Constants->end() ? 0 : 1 + C->second);
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
  std::pair<const Scope *, unsigned> HelperScope = Runs.scope(
      ScopeKey,
      [&] { return makeScope(Def, Scope::Def, Outer, F, I, &Classes); },
      NewScope);
  const Scope *S = HelperScope.first;
  // An event parameter is the caller's event: recorded or waited on in
  // the helper, it is recorded or waited on for the caller.
  if (NewScope)
    for (const auto &E : Events)
      Vars[{S, E.getKey().str()}] = E.second;
  PendingBody P;
  P.S = S;
  IR->Bodies.emplace_back();
  P.Id = IR->Bodies.size() - 1;
  P.SiteScope = HelperScope.second;
  if (const ProjectModule *M =
          Modules && !F.owns(Def) ? Modules->moduleOf(Def) : nullptr) {
    P.Index = M->X.get();
    Out->ScopeFiles[P.SiteScope] = M->F.get();
  }
  P.Self = Self;
  if (Constants)
    P.Constants = *Constants;
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
  // What its returns give: a tensor, a stream or an event (a work handle;
  // each a variable of the caller's, which the return binds).
  bool Tensor = false, Stream = false, Event = false;
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
      Event |= K == VarClass::Event;
    }
  });
  std::string Name = F.text(field(Def, "name")).str() + "()";
  // `-> torch.Tensor` says so of `return self.model(x)` too; a tuple it
  // returns (`return out, aux`, `-> Tuple[torch.Tensor, Out]`) gives the
  // caller a variable per tensor item.
  ReturnShape Returned = returnShapeIn(Def, *S, F, I);
  Tensor |= Returned.Whole == VarClass::Tensor;
  if (!Tensor && !Stream && !Part &&
      llvm::is_contained(Returned.Items, VarClass::Tensor))
    for (size_t K = 0; K < Returned.Items.size(); ++K)
      P.ReturnItems.push_back(
          Returned.Items[K] == VarClass::Tensor
              ? newSyntheticVar(Name + "[" + std::to_string(K) + "]",
                                VarClass::Tensor)
              : NoVar);
  if (Tensor && !Stream && !Part)
    P.ReturnTensor = newSyntheticVar(Name, VarClass::Tensor);
  if (Stream && !Tensor && !Part)
    P.ReturnStream = newSyntheticVar(Name, VarClass::Stream);
  if (Event && !Tensor && !Stream && !Part)
    P.ReturnEvent = newSyntheticVar(Name, VarClass::Event);
  Runs.queueHelper(P);
  Made = P.Id;
  return P.Id;
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
  // So does one called from a def that uses streams: what it does to the
  // tensors it is given may meet the def's work on another stream (a
  // write or a free of a buffer an asynchronous send still reads).
  auto PlainOpsUnderStreamBlock = [&] {
    return (RootUsesStreams || llvm::any_of(St->Frames,
                                            [](const Frame &Fr) {
                                              return Fr.K == Frame::With &&
                                                     Fr.Guard != NoVar;
                                            })) &&
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
      helperBody(Def, Outer, Self, M.Classes, M.Events, Part, &M.Constants);
  if (!Body)
    return false;
  const PendingBody &H = Runs.helper(*Body);
  SiteId At = site(SiteKind::Other, Call);
  if (!CalleeName.empty())
    Out->Callees[At] = CalleeName.str();
  llvm::SmallVector<VarId, 4> Unbind =
      bindArguments(M, H.S, At, /*Escapes=*/false);
  if (Part == 1) {
    Runs.ExitPart =
        helperBody(Def, Outer, Self, M.Classes, M.Events, 2, &M.Constants);
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
  for (VarId V : H.ReturnItems)
    if (V != NoVar)
      emit(At, fact::BindTensor{V, TensorRef()});
  if (H.ReturnStream != NoVar)
    emit(At, fact::BindStream{H.ReturnStream, StreamRef::unknown()});
  if (H.ReturnEvent != NoVar)
    emit(At, fact::BindEvent{H.ReturnEvent, false});
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
  } else if (H.ReturnEvent != NoVar) {
    Result.Class = VarClass::Event;
    Result.Event = H.ReturnEvent;
  } else if (!H.ReturnItems.empty()) {
    Result.List = true;
    for (VarId V : H.ReturnItems) {
      Result.Items.push_back(V == NoVar ? TensorRef() : TensorRef::var(V));
      if (V != NoVar)
        Result.Held.push_back(TensorRef::var(V));
    }
  }
  return true;
}

/// The value of the call \p N that made the object \p O.
static Value objectValue(TSNode N, const Instance *O) {
  Value V;
  V.Node = N;
  V.Object = O;
  return V;
}

bool Builder::helperCall(TSNode N, Value &Result) {
  TSNode Fn = field(N, "function");
  Args A = argsOf(N);
  if (is(Fn, "identifier")) {
    if (const Instance *O = newRecord(N)) {
      Result = objectValue(N, O);
      return true;
    }
    // Cls(args) of a class of this file: a new object, followed.
    const Scope *Owner = St->S->owner(F.text(Fn));
    TSNode Class = X->moduleClass(F.text(Fn));
    if (!ts_node_is_null(Class) && (!Owner || Owner->K == Scope::Module)) {
      const Instance *O = newObject(N, Class);
      if (!O)
        return false;
      Result = objectValue(N, O);
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
  // Cls(args) of a class of another module: a new object, followed as one
  // of a class of this file.
  if (TSNode Class = Modules->moduleClass(*From, Qualified, M);
      !ts_node_is_null(Class)) {
    F.link(*M->F);
    I.link(*M->I);
    const Instance *O = newObject(N, Class);
    if (!O)
      return false;
    Result = objectValue(N, O);
    return true;
  }
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

std::optional<CalleeDef> Builder::calleeDef(TSNode Fn) {
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
    // A class of another module sees that module's names.
    const Scope *Home = St->S->ModuleScope;
    if (Modules && !F.owns(O->Class))
      if (const ProjectModule *M = Modules->moduleOf(O->Class))
        Home = M->S.get();
    return CalleeDef{Def, Home, O, true};
  }
  // Cls.m(...) of a static method of a class of this file (or of its
  // bases): a def with no object.
  if (is(Object, "identifier")) {
    const Scope *Owner = St->S->owner(F.text(Object));
    TSNode Class = X->moduleClass(F.text(Object));
    if (!ts_node_is_null(Class) && (!Owner || Owner->K == Scope::Module)) {
      TSNode Def = X->staticMethodIn(Class, Method);
      if (ts_node_is_null(Def))
        return std::nullopt;
      return CalleeDef{Def, St->S->ModuleScope, nullptr, false};
    }
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
