//===--- BuildCalls.cpp - Python calls to stream facts --------------------===//
//
// A call is a stream API when its name resolves through the imports
// (torch.cuda.Stream, torch.cuda.set_stream, torch.randn, ...), or a method
// of a value known to be a tensor, a stream or an event. Every other call
// is unknown code: the tensors, events and streams it is given escape.
// Tensor calls are lowered by the model's recipes (lib/model/Recipes.h),
// as in the Clang front end.
//
//===----------------------------------------------------------------------===//

#include "lib/model/ApiRows.h"
#include "lib/model/Arguments.h"
#include "lib/model/Naming.h"
#include "lib/model/TensorMethods.h"
#include "lib/model/TorchFunctions.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/Collectives.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

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

TSNode Builder::nonBlockingArg(const Args &A, unsigned Position) {
  TSNode N = A.keyword(arguments::NonBlocking);
  if (ts_node_is_null(N) && Position < A.Positional.size())
    N = A.Positional[Position];
  return N;
}

bool Builder::nonBlocking(const Args &A, unsigned Position) {
  return literalTrue(F, nonBlockingArg(A, Position));
}

bool Builder::blockingCopyOfUnknown(llvm::StringRef Method, const Args &A) {
  ApiEffect E = py::tensorMethod(Method);
  if (E == ApiEffect::TensorHostRead || E == ApiEffect::TensorToHost)
    return A.Positional.empty() && A.Keywords.empty();
  if (E != ApiEffect::TensorTo)
    return false;
  // Blocking only when non_blocking is absent or the literal False (a
  // variable may be True).
  TSNode NB = nonBlockingArg(A, Method == "to" ? 1 : 0);
  if (!ts_node_is_null(NB) && !is(NB, "false") && F.text(NB) != "False")
    return false;
  if (Method != "to")
    return true;
  // to(torch.float16), to(dtype=...): no device, no copy between them.
  TSNode Dev = A.get(0, arguments::Device);
  return !ts_node_is_null(Dev) &&
         !(device(Dev).empty() && I.qualify(Dev).rfind("torch.", 0) == 0);
}

std::string Builder::device(TSNode Arg) { return deviceOf(Arg, *St->S, F, I); }

Value Builder::call(TSNode N) {
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
  // t.start() of a thread made here; a task handed to a worker thread.
  if (startThread(N) || submitTask(N))
    return Value();
  // t.join(), ev.set(), concurrent.futures.wait(fs): then the call itself.
  hostOrderCall(N, Q);
  if (!Q.empty()) {
    PyApi Api = apiOf(Q);
    if (Api != PyApi::None)
      return apiCall(N, int(Api), Q, A);
    if (Value R; moduleHelperCall(N, Q, A, R))
      return R;
    return codeNotSeen(N, A, /*Reads=*/!namesClass(Fn));
  }
  if (Value R; dictMethod(N, R))
    return R;
  // A def or method of this file.
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
      // g.replay(): the work a graph of this function recorded runs on the
      // current stream (a graph it did not capture replays nothing known).
      if (const ApiRow *Row = pythonApi("torch.cuda.CUDAGraph." + Method.str());
          Row && Row->Entry.Effect == ApiEffect::GraphReplay) {
        if (VarId G = channelVar(field(Fn, "object")); G != NoVar) {
          emit(site(SiteKind::Other, N),
               fact::GraphReplay{G, StreamRef::current()});
          return Value();
        }
      }
      if (Self.List && is(unparen(field(Fn, "object")), "identifier"))
        return listMethod(N, Self, Method, unparen(field(Fn, "object")));
      // x.cpu(), x.item(), x.to("cuda") of a value not followed: if x is a
      // CUDA tensor (or a module of them), the host waits for the current
      // stream; it may not be, so the wait only ends what it would end.
      if (blockingCopyOfUnknown(Method, A)) {
        unknownCall(A, true);
        fact::StreamSync Wait;
        Wait.Stream = StreamRef::current();
        Wait.MayNotHappen = true;
        emit(site(SiteKind::Other, N), Wait);
        return Value();
      }
      // e.wait(), e.synchronize() of a value not followed: it may be an
      // event (in a list, of another object) that orders what it recorded.
      // Taken to order everything rather than report what it may have.
      if (unknownWait(N, Method, A))
        return Value();
      break;
    }
  } else {
    expr(Fn);
  }
  // bool(t): a truth test.
  if (is(Fn, "identifier") && !St->S->owner(F.text(Fn)) &&
      F.text(Fn) == "bool" && A.Positional.size() == 1 && A.Keywords.empty()) {
    truthTest(A.Positional[0]);
    return Value();
  }
  // Builtins that keep nothing.
  llvm::StringRef Callee = is(Fn, "identifier") ? F.text(Fn) : "";
  bool Keeps =
      !(Callee == "print" || Callee == "len" || Callee == "isinstance" ||
        Callee == "range" || Callee == "id" || Callee == "type" ||
        Callee == "str" || Callee == "repr" || Callee == "hash");
  if (!Keeps)
    return unknownCall(A, false);
  // xs.append(t), q.put(t), d.update(...): a container's own methods only
  // keep what they are given.
  bool OnlyKeeps =
      (is(Fn, "attribute") && onlyKeeps(F.text(field(Fn, "attribute")))) ||
      namesClass(Fn);
  return codeNotSeen(N, A, /*Reads=*/!OnlyKeeps);
}

bool Builder::namesClass(TSNode Fn) {
  // `dist.P2POp(dist.isend, t, peer)`, `Bucket(t)`: by Python's naming
  // convention a CapWords name is a class, whose constructor keeps what it
  // is given (a module's forward runs when the object is called).
  Fn = unparen(Fn);
  TSNode Last = is(Fn, "attribute") ? field(Fn, "attribute") : Fn;
  if (!is(Last, "identifier"))
    return false;
  llvm::StringRef Name = F.text(Last).ltrim('_');
  return !Name.empty() && llvm::isUpper(Name.front()) &&
         llvm::any_of(Name, [](char C) { return llvm::isLower(C); });
}

bool Builder::onlyKeeps(llvm::StringRef Method) {
  static const llvm::StringSet<> Keeping = {"append",
                                            "extend",
                                            "insert",
                                            "add",
                                            "appendleft",
                                            "extendleft",
                                            "put",
                                            "put_nowait",
                                            "update",
                                            "setdefault",
                                            "push",
                                            "discard",
                                            "remove",
                                            "register_buffer",
                                            "register_parameter"};
  return Keeping.contains(Method);
}

Value Builder::codeNotSeen(TSNode N, const Args &A, bool Reads) {
  // Code the analysis does not see that is handed a tensor computes with it
  // on the current stream (a module's forward, an extension, a CPU op that
  // reads a host tensor now), as the C++ front end's unknown callee
  // (lib/frontend/LowerOtherCalls.cpp); and it may keep it.
  (void)N;
  auto Argument = [&](TSNode P) {
    TSNode At = is(P, "keyword_argument") ? field(P, "value") : P;
    Value V = expr(P);
    if (Reads) {
      access(false, V, At);
      for (const TensorRef &T : elements(V)) {
        Value E;
        E.Class = VarClass::Tensor;
        E.Tensor = T;
        access(false, E, At);
      }
    }
    escape(V, P);
    escapeCallable(P); // `pool.run(task)`: task may run there
  };
  for (TSNode P : A.Positional)
    Argument(P);
  for (const auto &[K, P] : A.Keywords)
    Argument(P);
  return Value();
}

bool Builder::unknownWait(TSNode N, llvm::StringRef Method, const Args &A) {
  if (Method == "wait" && A.Positional.size() <= 1 && A.Keywords.size() <= 1 &&
      A.Positional.size() + A.Keywords.size() <= 1) {
    TSNode Arg = A.get(0, "stream");
    if (!A.Keywords.empty() && ts_node_is_null(A.keyword("stream")))
      return false;
    Value On = ts_node_is_null(Arg) ? Value() : expr(Arg);
    StreamRef W = ts_node_is_null(Arg)           ? StreamRef::current()
                  : On.Class == VarClass::Stream ? On.Stream
                                                 : StreamRef::unknown();
    emit(site(SiteKind::Other, N), fact::EventWait{NoVar, W, false});
    return true;
  }
  if (Method == "synchronize" && A.Positional.empty() && A.Keywords.empty()) {
    fact::StreamSync Wait;
    Wait.Stream = StreamRef::unknown();
    Wait.MayNotHappen = true;
    emit(site(SiteKind::Other, N), Wait);
    return true;
  }
  return false;
}

// `current_stream().wait_stream(s)`, `current_stream().wait_event(e)`,
// `e.wait(current_stream())`: the stream asked for is only made to wait.
bool Builder::onlyWaits(TSNode Query) const {
  TSNode P = ts_node_parent(Query);
  if (is(P, "attribute") && field(P, "object").id == Query.id) {
    llvm::StringRef M = F.text(field(P, "attribute"));
    TSNode Call = ts_node_parent(P);
    return streamMethodEffect(M) == ApiEffect::StreamWaitEvent &&
           is(Call, "call") && field(Call, "function").id == P.id;
  }
  if (!is(P, "argument_list") || children(P).size() != 1)
    return false;
  TSNode Call = ts_node_parent(P);
  TSNode Fn = field(Call, "function");
  return is(Call, "call") && is(Fn, "attribute") &&
         F.text(field(Fn, "attribute")) == "wait";
}

Value Builder::unknownCall(const Args &A, bool Escapes) {
  auto Argument = [&](TSNode P) {
    Value V = expr(P);
    if (Escapes) {
      escape(V, P);
      escapeCallable(P); // `pool.run(task)`: task may run there
    }
  };
  for (TSNode P : A.Positional)
    Argument(P);
  for (const auto &[K, P] : A.Keywords)
    Argument(P);
  return Value();
}

Value Builder::apiCall(TSNode N, int ApiInt, const std::string &Q,
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
    emit(site(SiteKind::Other, N), fact::CurrentQuery{onlyWaits(N)});
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
    TSNode Arg = A.get(0, "stream");
    Value S = expr(Arg);
    fact::SetCurrent Set{S.Class == VarClass::Stream ? S.Stream
                                                     : StreamRef::unknown(),
                         setsForProcess(Arg)};
    Set.Restores = restoresSaved(Arg);
    emit(site(SiteKind::SetCurrent, N), Set);
    return R;
  }
  case PyApi::Synchronize:
    unknownCall(A, false);
    emit(site(SiteKind::Other, N), fact::DeviceSync{});
    return R;
  case PyApi::Thread:
    threadCall(N, A);
    return R;
  case PyApi::TorchFunction:
    return torchFunction(N, torchEffect(Q), torchBareName(Q), A);
  case PyApi::Collective:
    return collectiveCall(N, *collectiveRow(Q), A);
  case PyApi::StreamContext:
  case PyApi::Graph:
  case PyApi::DeviceContext:
  case PyApi::None:
    return unknownCall(A, true);
  case PyApi::NotTensor:
    // torch.sort(x), torch.topk(x, k): kernels that read x on the current
    // stream; their tuple is not followed.
    return codeNotSeen(N, A, readsTensorArguments(torchBareName(Q)));
  }
  return R;
}

void Builder::emitRecipe(const TensorCall &C, llvm::ArrayRef<TSNode> Nodes) {
  // One site per node and kind, as in every front end.
  llvm::SmallDenseMap<std::pair<unsigned, unsigned>, SiteId, 4> Sites;
  for (const RecipeStep &S : recipeOf(C)) {
    auto [It, New] = Sites.try_emplace({S.At, unsigned(S.Kind)}, NoSite);
    if (New)
      It->second = site(S.Kind, Nodes[S.At]);
    emit(It->second, S.What);
  }
}

void Builder::addTensorArg(const Value &V, TSNode At, TensorCall &C,
                           std::vector<TSNode> &Nodes) {
  if (V.Class == VarClass::Tensor && V.Tensor) {
    C.Args.push_back({V.Tensor, unsigned(Nodes.size())});
    Nodes.push_back(At);
  }
  // Every element of a list: torch.stack(xs), torch.cat([a, b]).
  if (V.List)
    for (const TensorRef &E : elements(V))
      if (E) {
        C.Args.push_back({E, unsigned(Nodes.size())});
        Nodes.push_back(At);
      }
}

Value Builder::torchFunction(TSNode N, ApiEffect Effect, llvm::StringRef Bare,
                             const Args &A) {
  TensorCall C;
  C.Effect = Effect;
  std::vector<TSNode> Nodes = {N};
  // torch.add(a, b, out=c) writes c, the last tensor: an out variant.
  TSNode OutArg = A.keyword("out");
  bool Out = !ts_node_is_null(OutArg);
  if (Out)
    C.Effect = ApiEffect::AtenOutLast;
  bool Factory = Effect == ApiEffect::AtenFactory;
  // A factory reads no tensor (a _like factory's source says where the
  // result lives); any other function reads its tensor arguments.
  Value First;
  for (TSNode P : A.Positional) {
    Value V = expr(P);
    if (P.id == A.Positional.front().id)
      First = V;
    if (!Factory || Out)
      addTensorArg(V, P, C, Nodes);
  }
  for (const auto &[K, P] : A.Keywords) {
    if (P.id == OutArg.id)
      continue;
    Value V = expr(P);
    if (!Factory || Out)
      addTensorArg(V, P, C, Nodes);
  }
  Value Target;
  if (Out) {
    Target = expr(OutArg);
    if (Target.Class == VarClass::Tensor && Target.Tensor) {
      C.Args.push_back({Target.Tensor, unsigned(Nodes.size())});
      Nodes.push_back(OutArg);
    }
  }
  // A written tensor the front end does not follow (out=buf[i], relu_ of
  // an unknown value): the call still reads what it knows, but writes none
  // of it, and its result is not followed.
  bool WritesUnknown =
      (Out && !(Target.Class == VarClass::Tensor && Target.Tensor)) ||
      (C.Effect == ApiEffect::AtenInPlace &&
       !(First.Class == VarClass::Tensor && First.Tensor && !First.List));
  if (WritesUnknown)
    C.Effect = ApiEffect::AtenOp;
  Value R;
  R.Node = N;
  if (Factory && !Out) {
    // Where the result lives: device=..., pin_memory=True, or the CPU (a
    // _like factory: where its source lives).
    bool Like = naming::isLikeFactory(Bare);
    TSNode Dev = A.keyword(arguments::Device);
    std::string D = device(Dev);
    bool Stated = !ts_node_is_null(Dev);
    if (literalTrue(F, A.keyword(arguments::PinMemory)))
      C.Place = Placement::PinnedHost;
    else if ((Stated && D == "cpu") || (!Stated && !Like))
      C.Place = Placement::Host;
    else if (!Stated && Like && First.Class == VarClass::Tensor) {
      C.Place = Placement::Source;
      addTensorArg(First, A.Positional.front(), C, Nodes);
    }
    C.AllocateOnly = naming::allocatesOnly(Bare);
    // torch.tensor([1, 2], device='cuda'): data written out in the call,
    // or a name bound only to such data, is host data (any other name may
    // hold a CUDA tensor, copied on the device).
    if (naming::copiesData(Bare) && !A.Positional.empty())
      C.FromHostData = isHostData(A.Positional.front(), *St->S, F);
    // device='cuda:1': allocated on device 1's current stream.
    if (std::optional<int8_t> Index = deviceIndex(Dev))
      C.Device = *Index;
  }
  if (!Out && !WritesUnknown && C.Effect != ApiEffect::AtenInPlace) {
    C.Result = objectOf(N);
    R.Class = VarClass::Tensor;
    R.Tensor = TensorRef::result(*C.Result);
  }
  emitRecipe(C, Nodes);
  if (Out)
    return Target;
  if (C.Effect == ApiEffect::AtenInPlace && !C.Args.empty()) {
    // torch.relu_(t) returns t.
    R.Class = VarClass::Tensor;
    R.Tensor = C.Args.front().Tensor;
  }
  return R;
}

Value Builder::tensorMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                            const Args &A) {
  Value R;
  R.Node = N;
  ApiEffect Effect = py::tensorMethod(Method);
  switch (Effect) {
  case ApiEffect::TensorMetadata:
  case ApiEffect::TensorRawPointer:
    unknownCall(A, false);
    return R;
  case ApiEffect::TensorView: {
    unknownCall(A, false);
    // contiguous() of a transposed tensor copies: a read of it here.
    if (viewMayCopy(Method))
      access(false, Self, N);
    Value V = Self;
    V.Node = N;
    if (V.Tensor.K == TensorRef::Var)
      V.Tensor.Part = exprRegion(N);
    return V;
  }
  case ApiEffect::TensorViewList:
    unknownCall(A, false);
    return pieceList(N, Self);
  default:
    break;
  }
  // Nodes[0] is the call, Nodes[1] the receiver; then tensor arguments.
  std::vector<TSNode> Nodes = {N, Self.Node};
  TensorCall C;
  C.Effect = Effect;
  if (Self.Class == VarClass::Tensor && Self.Tensor)
    C.Self = SitedTensor{Self.Tensor, 1};
  else
    C.Self = SitedTensor{TensorRef(), 1};
  bool Returns = true; // a new tensor
  bool ReturnsSelf = false;
  switch (Effect) {
  case ApiEffect::TensorInPlace:
  case ApiEffect::TensorOp:
    for (TSNode P : A.Positional)
      addTensorArg(expr(P), P, C, Nodes);
    for (const auto &[K, P] : A.Keywords)
      addTensorArg(expr(P), P, C, Nodes);
    Returns = Effect == ApiEffect::TensorOp;
    ReturnsSelf = !Returns;
    break;
  case ApiEffect::TensorCopyFrom: {
    TSNode SrcNode = A.get(0, "src");
    Value Src = expr(SrcNode);
    if (Src.Class == VarClass::Tensor) {
      C.Args.push_back({Src.Tensor, unsigned(Nodes.size())});
      Nodes.push_back(SrcNode);
    }
    C.Async = nonBlocking(A, 1);
    Returns = false;
    ReturnsSelf = true;
    break;
  }
  case ApiEffect::TensorRecordStream: {
    Value S = expr(A.get(0, "stream"));
    C.Stream = S.Class == VarClass::Stream ? S.Stream : StreamRef::unknown();
    Returns = false;
    break;
  }
  case ApiEffect::TensorHostRead:
    unknownCall(A, false);
    Returns = false;
    break;
  case ApiEffect::TensorToHost:
    unknownCall(A, false);
    break;
  case ApiEffect::TensorTo: {
    // cuda(), to(device, dtype, non_blocking, copy), to(dtype).
    C.Async = nonBlocking(A, Method == "to" ? 1 : 0);
    C.Place = Placement::Device;
    TSNode Dev = A.get(0, arguments::Device);
    if (Method == "to") {
      if (ts_node_is_null(Dev)) {
        C.Place = Placement::Source;
      } else {
        std::string D = device(Dev);
        Value DevValue = expr(Dev);
        if (D == "cpu")
          C.Place = Placement::Host;
        else if (D.empty() && DevValue.Class == VarClass::Other &&
                 I.qualify(Dev).rfind("torch.", 0) == 0)
          C.Place = Placement::Source; // to(torch.float16): a dtype
      }
      if (!ts_node_is_null(A.keyword("dtype")) && A.Positional.empty() &&
          ts_node_is_null(A.keyword(arguments::Device)))
        C.Place = Placement::Source;
    }
    // to('cuda:1') and cuda(1) allocate on device 1's current stream.
    if (C.Place == Placement::Device)
      if (std::optional<int8_t> Index = deviceIndex(Dev))
        C.Device = *Index;
    break;
  }
  default:
    break;
  }
  if (Returns)
    C.Result = objectOf(N);
  emitRecipe(C, Nodes);
  if (ReturnsSelf) {
    Value V = Self;
    V.Node = N;
    return V;
  }
  if (Returns) {
    R.Class = VarClass::Tensor;
    R.Tensor = TensorRef::result(*C.Result);
  }
  return R;
}

Value Builder::truthTest(TSNode N) {
  Value V = expr(N);
  // `if t:`, `assert t`, `bool(t)` of a tensor: the host reads its one
  // value, as t.item() does (after a copy that waits for the current
  // stream, when it is on a device).
  if (V.Class != VarClass::Tensor || !V.Tensor)
    return V;
  TensorCall C;
  C.Effect = ApiEffect::TensorHostRead;
  C.Self = SitedTensor{V.Tensor, 1};
  emitRecipe(C, {N, N});
  return Value();
}

} // namespace streamsafe::py
