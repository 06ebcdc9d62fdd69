//===--- BuildCalls.cpp - Python calls to stream facts --------------------===//
//
// A call is a stream API when its name resolves through the imports
// (torch.cuda.Stream, torch.cuda.set_stream, torch.randn, ...), or a method
// of a value known to be a tensor, a stream or an event. Tensor methods and
// torch functions are lowered by the model's recipes (TensorCalls.cpp); every
// other call is code the analysis does not see (UnknownCode.cpp).
//
//===----------------------------------------------------------------------===//

#include "lib/lower/UnknownCode.h"
#include "lib/model/ApiRows.h"
#include "lib/model/Arguments.h"
#include "lib/model/TensorMethods.h"
#include "lib/model/TorchFunctions.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/Collectives.h"
#include "lib/python/ExprClasses.h"

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

TSNode Builder::nonBlockingArg(const Args &A, unsigned Position) {
  TSNode N = A.keyword(arguments::NonBlocking);
  if (ts_node_is_null(N) && Position < A.Positional.size())
    N = A.Positional[Position];
  return N;
}

bool Builder::nonBlocking(const Args &A, unsigned Position) {
  return literalTrue(F, nonBlockingArg(A, Position));
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
  // t.untyped_storage().resize_(0): t's memory goes back to the allocator.
  if (freeStorage(N, A))
    return Value();
  // t.set_(h.untyped_storage(), ...): t now names h's storage.
  if (setStorage(N, A))
    return Value();
  // t.join(), ev.set(), concurrent.futures.wait(fs): then the call itself.
  // (Its wait or signal is the model's: no other wait of code not seen.)
  bool HostOrdered = hostOrderCall(N, Q);
  if (!Q.empty()) {
    PyApi Api = apiOf(Q);
    if (Api != PyApi::None)
      return apiCall(N, int(Api), Q, A);
    if (Value R; moduleHelperCall(N, Q, A, R) || summarizedReturn(N, A, R))
      return R;
    return unknownCode(N, A,
                       namesClass(Fn) || HostOrdered
                           ? lower::UnknownCallee::Keeps
                           : lower::UnknownCallee::Program);
  }
  if (Value R; dictMethod(N, R) || dictAttributeRead(N, R))
    return R;
  // A def or method of this file.
  if (Value R; helperCall(N, R) || summarizedReturn(N, A, R))
    return R;
  if (is(Fn, "attribute")) {
    Value Self = expr(field(Fn, "object"));
    llvm::StringRef Method = F.text(field(Fn, "attribute"));
    // next(it).cuda(non_blocking=True): a use only a tensor has, of what
    // code the analysis does not see returns: a tensor made there.
    if (TSNode Of = unparen(field(Fn, "object"));
        Self.Class == VarClass::Other && !Self.Object && !Self.List &&
        is(Of, "call") && infer::opaqueValue(Of, F, I) &&
        callProvesTensor(N, Method, F))
      Self = unknownResult(Of);
    // inputs[k].copy_(...) of a parameter: an element of the caller's.
    if (Self.Class == VarClass::Other && !Self.Object && !Self.List &&
        callProvesTensor(N, Method, F))
      if (Value E = parameterElement(field(Fn, "object"));
          E.Class == VarClass::Tensor)
        Self = E;
    // other.view._buf.copy_(src, non_blocking=True): a tensor the analysis
    // does not follow receives the copy; what it copies from is read.
    if (TSNode Of = unparen(field(Fn, "object"));
        Self.Class == VarClass::Other && !Self.Object && !Self.List &&
        is(Of, "attribute") &&
        py::tensorMethod(Method) == ApiEffect::TensorCopyFrom) {
      auto [It, New] = Synthetic.try_emplace({"copied into", Of.id}, NoVar);
      if (New)
        It->second = newSyntheticVar("", VarClass::Tensor);
      Self.Class = VarClass::Tensor;
      Self.Node = Of;
      Self.Tensor = TensorRef::var(It->second);
    }
    switch (Self.Class) {
    case VarClass::Tensor: {
      Value R = tensorMethod(N, Self, Method, A);
      gradientUse(N, TSNode{}, Method); // t.backward() writes the gradients
      return R;
    }
    case VarClass::Stream:
      return streamMethod(N, Self, Method, A);
    case VarClass::Event:
      return eventMethod(N, Self, Method, A);
    default:
      // opt.step(), opt.zero_grad() of an optimizer: the gradients.
      if (gradientUse(N, field(Fn, "object"), Method)) {
        unknownCall(A, true);
        return Value();
      }
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
      if ((Self.List || !Self.Tuples.empty()) &&
          is(unparen(field(Fn, "object")), "identifier"))
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
      // (A threading.Event's or a Queue's wait orders host threads only.)
      if (!hostOnlyChannel(field(Fn, "object")) && unknownWait(N, Method, A))
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
    return unknownCode(N, A, lower::UnknownCallee::Inspects);
  // xs.append(t), q.put(t), d.update(...): a container's own methods only
  // keep what they are given.
  bool OnlyKeeps =
      (is(Fn, "attribute") && onlyKeeps(F.text(field(Fn, "attribute")))) ||
      namesClass(Fn);
  return unknownCode(N, A,
                     OnlyKeeps || HostOrdered ? lower::UnknownCallee::Keeps
                                              : lower::UnknownCallee::Program);
}

bool Builder::freeStorage(TSNode N, const Args &A) {
  TSNode Fn = field(N, "function");
  TSNode Accessor = unparen(field(Fn, "object"));
  if (!is(Fn, "attribute") || !is(Accessor, "call") ||
      A.Positional.size() != 1 || !A.Keywords.empty())
    return false;
  bool Free = constantInt(A.Positional[0]) == 0;
  TSNode Of = field(Accessor, "function");
  if (!is(Of, "attribute") ||
      !freesStorageAtZero(F.text(field(Of, "attribute")),
                          F.text(field(Fn, "attribute"))) ||
      classOfExpr(field(Of, "object"), *St->S, F, I) != VarClass::Tensor)
    return false;
  Value T = expr(field(Of, "object"));
  if (T.Class != VarClass::Tensor || !T.Tensor)
    return false;
  if (Free) {
    emit(site(SiteKind::StorageFree, N), fact::Free{T.Tensor});
    return true;
  }
  // resize_(n): the storage (freed, as FSDP and offloading code free it)
  // gets a new block on the current stream, values not written.
  expr(A.Positional[0]);
  fact::Allocate New;
  New.Stream = StreamRef::current();
  New.AllocateOnly = true;
  New.Into = T.Tensor;
  emit(site(SiteKind::Allocation, N), New);
  return true;
}

bool Builder::setStorage(TSNode N, const Args &A) {
  TSNode Fn = field(N, "function");
  if (!is(Fn, "attribute") || !setsStorage(F.text(field(Fn, "attribute"))))
    return false;
  TSNode Of = unparen(field(Fn, "object"));
  VarId Var = is(Of, "identifier") ? varOf(F.text(Of)) : NoVar;
  if (Var == NoVar || IR->var(Var).Class != VarClass::Tensor ||
      IR->var(Var).Persistent)
    return false;
  // The source: a tensor, or the storage of one (`h.untyped_storage()`).
  TSNode Source = unparen(A.get(0, "source"));
  if (is(Source, "call") && is(field(Source, "function"), "attribute") &&
      accessesStorage(F.text(field(field(Source, "function"), "attribute"))))
    Source = unparen(field(field(Source, "function"), "object"));
  Value Src = ts_node_is_null(Source) ? Value() : expr(Source);
  // What t held loses this reference; with no source (`t.set_()`), or one
  // not followed, t names a storage the analysis does not follow.
  emit(site(SiteKind::Other, N),
       fact::BindTensor{Var, Src.Class == VarClass::Tensor ? Src.Tensor
                                                           : TensorRef()});
  return true;
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
  case PyApi::StreamContext: {
    // Kept to be entered later (`ctx = torch.cuda.stream(s)`): the stream
    // it will make current, as `with torch.cuda.stream(s):` reads it now.
    TSNode Arg = A.get(0, "stream");
    R.Class = VarClass::Stream;
    if (!ts_node_is_null(Arg) && !is(unparen(Arg), "none"))
      if (Value S = expr(Arg); S.Class == VarClass::Stream)
        R.Stream = S.Stream;
    return R;
  }
  case PyApi::Graph:
  case PyApi::DeviceContext:
  case PyApi::Task: // not run as a task here (submitTask): unknown code
  case PyApi::None:
    return unknownCall(A, true);
  case PyApi::NotTensor: {
    // torch.sort(x), torch.topk(x, k): kernels that read x on the current
    // stream; their tuple is not followed.
    Value V = unknownCall(A, true, readsTensorArguments(torchBareName(Q)));
    // torch.equal(a, b): then the host reads the answer (unless a is a
    // host tensor, when no stream is involved).
    if (returnsHostValue(torchBareName(Q)) && !A.Positional.empty()) {
      fact::StreamSync Wait{StreamRef::current(), false, {}, {}, false};
      // (A name's value, read again: looking it up lowers nothing.)
      if (TSNode P = unparen(A.Positional.front()); is(P, "identifier"))
        if (Value First = name(P); First.Class == VarClass::Tensor)
          Wait.A = First.Tensor;
      Wait.UnlessHost = true;
      emit(site(SiteKind::Other, N), Wait);
    }
    return V;
  }
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
  emitRecipe(recipeOf(C), {N, N});
  return Value();
}

} // namespace streamsafe::py
