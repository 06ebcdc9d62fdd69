//===--- BuildCalls.cpp - Python calls to stream facts --------------------===//
//
// A call is a stream API when its name resolves through the imports
// (torch.cuda.Stream, torch.cuda.set_stream, torch.randn, ...), or a method
// of a value known to be a tensor, a stream or an event. Every other call
// is unknown code: the tensors, events and streams it is given escape.
// The facts mirror the C++ rows (lib/frontend/LowerCalls.cpp).
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"

namespace streamsafe::py {

TSNode Builder::Args::keyword(llvm::StringRef Name) const {
  for (const auto &[K, V] : Keywords)
    if (K == Name)
      return V;
  return TSNode{};
}

TSNode Builder::Args::get(unsigned Index, llvm::StringRef Name) const {
  if (Index < Positional.size())
    return Positional[Index];
  return keyword(Name);
}

Builder::Args Builder::argsOf(TSNode Call) {
  Args A;
  TSNode List = field(Call, "arguments");
  if (!is(List, "argument_list"))
    return A;
  for (TSNode C : children(List)) {
    if (is(C, "keyword_argument"))
      A.Keywords.push_back({F.text(field(C, "name")), field(C, "value")});
    else
      A.Positional.push_back(C);
  }
  return A;
}

// True for the literal True.
static bool literalTrue(const SourceFile &F, TSNode N) {
  return is(N, "true") || (!ts_node_is_null(N) && F.text(N) == "True");
}

bool Builder::nonBlocking(const Args &A, unsigned Position) {
  TSNode N = A.keyword("non_blocking");
  if (ts_node_is_null(N) && Position < A.Positional.size())
    N = A.Positional[Position];
  return literalTrue(F, N);
}

std::string Builder::device(TSNode Arg) { return deviceOf(Arg, *St->S, F, I); }

Builder::Value Builder::call(TSNode N) {
  TSNode Fn = field(N, "function");
  Args A = argsOf(N);
  std::string Q = I.qualify(Fn);
  // A name bound in the scope is not the import it may shadow.
  if (is(Fn, "identifier") && St->S->owner(F.text(Fn)))
    Q.clear();
  // torch.chunk(t, n) and its kin: views of t, as t.chunk(n).
  if (!Q.empty())
    if (TSNode Base = pieceListBase(
            N, F, I, [&](TSNode X) { return classOfExpr(X, *St->S, F, I); });
        !ts_node_is_null(Base)) {
      Value Self = expr(Base);
      for (size_t K = 1; K < A.Positional.size(); ++K)
        expr(A.Positional[K]);
      return pieceList(N, Self);
    }
  // list(xs), tuple(xs): the same elements.
  if (is(Fn, "identifier") && !St->S->owner(F.text(Fn)) &&
      (F.text(Fn) == "list" || F.text(Fn) == "tuple") &&
      A.Positional.size() == 1 && A.Keywords.empty()) {
    Value V = expr(A.Positional[0]);
    if (V.List)
      return V;
    escape(V, A.Positional[0]);
    return Value();
  }
  if (!Q.empty()) {
    PyApi Api = apiOf(Q);
    if (Api != PyApi::None)
      return apiCall(N, int(Api), Q, A);
    return unknownCall(A, true);
  }
  // t.start() of a thread made here; a def or method of this file.
  if (startThread(N) || submitTask(N))
    return Value();
  if (Value R; helperCall(N, R))
    return R;
  if (is(Fn, "attribute")) {
    Value Self = expr(field(Fn, "object"));
    llvm::StringRef Method = F.text(field(Fn, "attribute"));
    switch (Self.Class) {
    case VarClass::Tensor:
      return tensorMethod(N, Self, Method, A);
    case VarClass::Stream:
      return streamMethod(N, Self, Method, A);
    case VarClass::Event:
      return eventMethod(N, Self, Method, A);
    default:
      if (Self.List && is(unparen(field(Fn, "object")), "identifier"))
        return listMethod(N, Self, Method, unparen(field(Fn, "object")));
      break;
    }
  } else {
    expr(Fn);
  }
  // Builtins that keep nothing.
  llvm::StringRef Callee = is(Fn, "identifier") ? F.text(Fn) : "";
  bool Keeps =
      !(Callee == "print" || Callee == "len" || Callee == "isinstance" ||
        Callee == "range" || Callee == "id" || Callee == "type" ||
        Callee == "str" || Callee == "repr" || Callee == "hash");
  return unknownCall(A, Keeps);
}

Builder::Value Builder::unknownCall(const Args &A, bool Escapes) {
  for (TSNode P : A.Positional) {
    Value V = expr(P);
    if (Escapes)
      escape(V, P);
  }
  for (const auto &[K, P] : A.Keywords) {
    Value V = expr(P);
    if (Escapes)
      escape(V, P);
  }
  return Value();
}

Builder::Value Builder::apiCall(TSNode N, int ApiInt, const std::string &Q,
                                const Args &A) {
  PyApi Api = PyApi(ApiInt);
  Value R;
  R.Node = N;
  switch (Api) {
  case PyApi::NewStream:
    unknownCall(A, false);
    R.Class = VarClass::Stream;
    R.Stream = {StreamRef::Pool, objectOf(N), NoVar};
    return R;
  case PyApi::ExternalStream:
    unknownCall(A, false);
    R.Class = VarClass::Stream;
    R.Stream = {StreamRef::Other, objectOf(N), NoVar};
    return R;
  case PyApi::CurrentStream: {
    unknownCall(A, false);
    emit(site(SiteKind::Other, N), fact::CurrentQuery{});
    R.Class = VarClass::Stream;
    R.Stream = StreamRef::queried();
    // current_stream(1): the current stream of device 1.
    if (std::optional<int8_t> D = deviceIndex(A.get(0, "device")))
      R.Stream = StreamRef::currentOf(*D);
    return R;
  }
  case PyApi::DefaultStream:
    unknownCall(A, false);
    R.Class = VarClass::Stream;
    R.Stream = StreamRef::legacy();
    return R;
  case PyApi::NewEvent:
    unknownCall(A, false);
    R.Class = VarClass::Event;
    R.FreshEvent = true;
    return R;
  case PyApi::SetStream: {
    Value S = expr(A.get(0, "stream"));
    emit(site(SiteKind::SetCurrent, N),
         fact::SetCurrent{S.Class == VarClass::Stream ? S.Stream
                                                      : StreamRef::unknown(),
                          setsForProcess(A.get(0, "stream"))});
    return R;
  }
  case PyApi::Synchronize:
    unknownCall(A, false);
    emit(site(SiteKind::Other, N), fact::DeviceSync{});
    return R;
  case PyApi::Thread:
    spawnThread(N, A);
    return R;
  case PyApi::Factory:
  case PyApi::LikeFactory:
  case PyApi::TensorOp: {
    bool Like = Api == PyApi::LikeFactory;
    std::vector<std::pair<Value, TSNode>> Tensors;
    for (TSNode P : A.Positional)
      Tensors.push_back({expr(P), P});
    TSNode OutArg = {};
    for (const auto &[K, P] : A.Keywords) {
      if (K == "out")
        OutArg = P;
      Tensors.push_back({expr(P), P});
    }
    fact::Allocate Alloc;
    Alloc.Result = objectOf(N);
    Alloc.Stream = StreamRef::current();
    if (Api == PyApi::TensorOp) {
      // An op reads its tensor arguments (a _like factory does not), and
      // every element of a list (torch.stack(xs), torch.cat([a, b])).
      for (const auto &[V, P] : Tensors)
        if (!(P.id == OutArg.id && !ts_node_is_null(OutArg))) {
          readTensor(V, P);
          if (V.List)
            for (const TensorRef &E : elements(V))
              if (E)
                emit(site(SiteKind::Access, P),
                     fact::Access{false, E, StreamRef::current()});
        }
    } else {
      // Where the result lives: device=..., pin_memory=True, or the CPU
      // (a _like factory: where its source lives).
      std::string D = device(A.keyword("device"));
      bool Stated = !ts_node_is_null(A.keyword("device"));
      bool Pinned = literalTrue(F, A.keyword("pin_memory"));
      if (Pinned || (Stated && D == "cpu") || (!Stated && !Like)) {
        Alloc.Host = true;
        Alloc.Pinned = Pinned;
      } else if (!Stated && Like && !A.Positional.empty()) {
        Value Src = Tensors.front().first;
        if (Src.Class == VarClass::Tensor)
          Alloc.Like = Src.Tensor;
      }
      Alloc.AllocateOnly = allocatesOnly(Q);
      // device='cuda:1': allocated on device 1's current stream.
      if (!Alloc.Host)
        if (std::optional<int8_t> D = deviceIndex(A.keyword("device")))
          Alloc.Stream = StreamRef::currentOf(*D);
    }
    if (!ts_node_is_null(OutArg)) {
      // torch.add(a, b, out=c): writes c.
      Value Target = expr(OutArg);
      access(true, Target, OutArg);
      return Target;
    }
    emit(site(SiteKind::Allocation, N), Alloc);
    R.Class = VarClass::Tensor;
    R.Tensor = TensorRef::result(Alloc.Result);
    return R;
  }
  case PyApi::StreamContext:
  case PyApi::Graph:
  case PyApi::DeviceContext:
  case PyApi::NotTensor:
  case PyApi::None:
    return unknownCall(A, true);
  }
  return R;
}

Builder::Value Builder::tensorMethod(TSNode N, const Value &Self,
                                     llvm::StringRef Method, const Args &A) {
  TSNode SelfNode = Self.Node;
  Value R;
  R.Node = N;
  auto ReadArgs = [&] {
    for (TSNode P : A.Positional)
      readTensor(expr(P), P);
    for (const auto &[K, P] : A.Keywords)
      readTensor(expr(P), P);
  };
  auto Allocate = [&](bool Host, bool Async, bool Pinned, TensorRef Like,
                      std::optional<int8_t> Device = std::nullopt) {
    fact::Allocate Alloc;
    Alloc.Result = objectOf(N);
    Alloc.Stream =
        Device ? StreamRef::currentOf(*Device) : StreamRef::current();
    Alloc.Host = Host;
    Alloc.Async = Async;
    Alloc.Pinned = Pinned;
    Alloc.Like = Like;
    emit(site(SiteKind::Allocation, N), Alloc);
    R.Class = VarClass::Tensor;
    R.Tensor = TensorRef::result(Alloc.Result);
  };
  switch (py::tensorMethod(Method)) {
  case TensorMethod::Metadata:
    unknownCall(A, false);
    return R;
  case TensorMethod::View: {
    unknownCall(A, false);
    Value V = Self;
    V.Node = N;
    if (V.Tensor.K == TensorRef::Var)
      V.Tensor.Part = exprRegion(N);
    return V;
  }
  case TensorMethod::PieceList:
    unknownCall(A, false);
    return pieceList(N, Self);
  case TensorMethod::InPlace: {
    ReadArgs();
    access(true, Self, SelfNode);
    Value V = Self;
    V.Node = N;
    return V;
  }
  case TensorMethod::CopyFrom: {
    TSNode SrcNode = A.get(0, "src");
    Value Src = expr(SrcNode);
    bool Async = nonBlocking(A, 1);
    access(false, Src, SrcNode, Async, /*Copy=*/true);
    access(true, Self, SelfNode, Async, /*Copy=*/true);
    // A blocking copy_ waits for the stream only when one side is on the
    // host; the solver decides, knowing where each tensor lives.
    if (!Async && Src.Class == VarClass::Tensor) {
      fact::StreamSync S;
      S.Stream = StreamRef::current();
      S.IfHostInvolved = true;
      S.A = Self.Tensor;
      S.B = Src.Tensor;
      emit(site(SiteKind::Other, N), S);
    }
    Value V = Self;
    V.Node = N;
    return V;
  }
  case TensorMethod::RecordStream: {
    Value S = expr(A.get(0, "stream"));
    emit(site(SiteKind::Other, N),
         fact::RecordStream{Self.Tensor, S.Class == VarClass::Stream
                                             ? S.Stream
                                             : StreamRef::unknown()});
    return R;
  }
  case TensorMethod::HostRead:
    // item(), tolist(), numpy(): the host reads the memory (of a CPU
    // tensor: now; of a CUDA one: after a copy that waits for the current
    // stream).
    unknownCall(A, false);
    emit(site(SiteKind::Access, SelfNode),
         fact::HostAccess{false, Self.Tensor});
    access(false, Self, SelfNode);
    emit(site(SiteKind::Other, N),
         fact::StreamSync{StreamRef::current(), false, {}, {}, false});
    return R;
  case TensorMethod::To: {
    // cpu(), cuda(), to(device, dtype, non_blocking, copy), to(dtype).
    bool ToHost = false, Source = false;
    bool Async = nonBlocking(A, Method == "to" ? 1 : 0);
    if (Method == "cpu") {
      ToHost = true;
    } else if (Method == "to") {
      TSNode Dev = A.get(0, "device");
      if (ts_node_is_null(Dev)) {
        Source = true;
      } else {
        std::string D = device(Dev);
        Value DevValue = expr(Dev);
        if (D == "cpu")
          ToHost = true;
        else if (D.empty() && DevValue.Class == VarClass::Other &&
                 I.qualify(Dev).rfind("torch.", 0) == 0)
          Source = true; // to(torch.float16): a dtype
      }
      if (!ts_node_is_null(A.keyword("dtype")) && A.Positional.empty() &&
          ts_node_is_null(A.keyword("device")))
        Source = true;
    }
    access(false, Self, SelfNode, Async, /*Copy=*/true);
    if (ToHost && !Async)
      emit(site(SiteKind::Other, N),
           fact::StreamSync{StreamRef::current(), false, {}, {}, false});
    // A non_blocking copy to the host lands in pinned memory; to('cuda:1')
    // and cuda(1) allocate on device 1's current stream.
    std::optional<int8_t> Device;
    if (!ToHost && !Source)
      Device = deviceIndex(A.get(0, "device"));
    Allocate(ToHost, Async, ToHost && Async, Source ? Self.Tensor : TensorRef(),
             Device);
    return R;
  }
  case TensorMethod::PinMemory:
    access(false, Self, SelfNode);
    Allocate(true, false, true, TensorRef());
    return R;
  case TensorMethod::Op:
    ReadArgs();
    access(false, Self, SelfNode);
    Allocate(false, false, false, TensorRef());
    return R;
  }
  return R;
}

Builder::Value Builder::streamMethod(TSNode N, const Value &Self,
                                     llvm::StringRef Method, const Args &A) {
  Value R;
  R.Node = N;
  if (Method == "wait_stream") {
    // s.wait_stream(o) is an event recorded on o that s waits on. One
    // variable serves every call (each binds a new event): the wait follows
    // the record at once, and no stale event is kept in the state.
    TSNode Arg = A.get(0, "stream");
    Value Other = expr(Arg);
    VarId E = syntheticVar("wait_stream", VarClass::Event, TSNode{});
    emit(site(SiteKind::EventDecl, N), fact::BindEvent{E, true});
    emit(site(SiteKind::EventRecord, ts_node_is_null(Arg) ? N : Arg),
         fact::EventRecord{E, Other.Class == VarClass::Stream
                                  ? Other.Stream
                                  : StreamRef::unknown()});
    emit(site(SiteKind::EventWait, N), fact::EventWait{E, Self.Stream, false});
    return R;
  }
  if (Method == "wait_event") {
    Value E = expr(A.get(0, "event"));
    if (E.Class == VarClass::Event && E.Event != NoVar)
      emit(site(SiteKind::EventWait, N),
           fact::EventWait{E.Event, Self.Stream, false});
    return R;
  }
  if (Method == "record_event") {
    TSNode Arg = A.get(0, "event");
    if (!ts_node_is_null(Arg)) {
      Value E = expr(Arg);
      if (E.Class == VarClass::Event && E.Event != NoVar)
        emit(site(SiteKind::EventRecord, N),
             fact::EventRecord{E.Event, Self.Stream});
      return E;
    }
    R.Class = VarClass::Event;
    R.RecordOn = true;
    R.RecordStream = Self.Stream;
    return R;
  }
  if (Method == "synchronize") {
    fact::StreamSync S;
    S.Stream = Self.Stream;
    emit(site(SiteKind::Other, N), S);
    return R;
  }
  if (Method == "query") {
    emit(site(SiteKind::Other, N),
         fact::Restricted{RestrictedCall::StreamQuery, NoVar, Self.Stream});
    return R;
  }
  return unknownCall(A, true);
}

Builder::Value Builder::eventMethod(TSNode N, const Value &Self,
                                    llvm::StringRef Method, const Args &A) {
  Value R;
  R.Node = N;
  if (Self.Event == NoVar)
    return unknownCall(A, true);
  auto StreamArg = [&] {
    TSNode Arg = A.get(0, "stream");
    if (ts_node_is_null(Arg) || is(Arg, "none"))
      return StreamRef::current();
    Value S = expr(Arg);
    return S.Class == VarClass::Stream ? S.Stream : StreamRef::unknown();
  };
  if (Method == "record") {
    StreamRef S = StreamArg();
    emit(site(SiteKind::EventRecord, N), fact::EventRecord{Self.Event, S});
    return R;
  }
  if (Method == "wait") {
    StreamRef S = StreamArg();
    emit(site(SiteKind::EventWait, N), fact::EventWait{Self.Event, S, false});
    return R;
  }
  if (Method == "synchronize") {
    emit(site(SiteKind::Other, N), fact::EventSync{Self.Event});
    return R;
  }
  if (Method == "query") {
    emit(site(SiteKind::Other, N),
         fact::Restricted{RestrictedCall::EventQuery, Self.Event,
                          StreamRef::unknown()});
    return R;
  }
  return unknownCall(A, true);
}

void Builder::spawnThread(TSNode N, const Args &A) {
  TSNode Target = unparen(A.keyword("target"));
  // Arguments handed to the thread may outlive this function.
  for (const auto &[K, P] : A.Keywords)
    if (K != "target")
      escape(expr(P), P);
  for (TSNode P : A.Positional)
    escape(expr(P), P);
  // The body: a def of this scope or an enclosing one, or a lambda.
  TSNode Def = {};
  const Scope *Outer = nullptr;
  if (is(Target, "identifier")) {
    for (const Scope *S = St->S; S; S = S->Parent) {
      auto It = S->Defs.find(F.text(Target));
      if (It != S->Defs.end()) {
        Def = It->second;
        Outer = S;
        break;
      }
      if (S->Locals.count(F.text(Target)))
        break; // bound to something else here
    }
  } else if (is(Target, "lambda")) {
    Def = Target;
    Outer = St->S;
  }
  if (ts_node_is_null(Def))
    return;
  auto [It, New] = ThreadBodies.try_emplace(Def.id, 0);
  if (New) {
    OwnedScopes.push_back(makeScope(
        Def, is(Def, "lambda") ? Scope::Lambda : Scope::Def, Outer, F, I));
    IR->Bodies.emplace_back();
    It->second = IR->Bodies.size() - 1;
    Pending.push_back({OwnedScopes.back().get(), It->second});
  }
  const Scope *Inner = nullptr;
  for (const auto &S : OwnedScopes)
    if (S->Node.id == Def.id)
      Inner = S.get();
  // The tensors it names outlive this function with it.
  escapeCaptured(field(Def, "body"), *Inner);
  // The body runs where the thread starts: `.start()`, if this body calls
  // it, else where it is made.
  std::string Var;
  TSNode StartAt = threadStart(N, Var);
  if (ts_node_is_null(StartAt)) {
    Unstarted[{St->S, Var}] = It->second;
    return;
  }
  fact::Spawn S;
  S.Body = It->second;
  emit(site(SiteKind::ThreadStart, StartAt), S);
}

} // namespace streamsafe::py
