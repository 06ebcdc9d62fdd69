//===--- Recipes.cpp - The facts of each tensor effect --------------------===//
//
// docs/api-model.md (section 5) gives the semantics behind each recipe.
//
//===----------------------------------------------------------------------===//

#include "lib/model/Recipes.h"

namespace streamsafe {

namespace {

using E = ApiEffect;

class Cook {
public:
  explicit Cook(const TensorCall &C) : C(C) {}

  void access(const SitedTensor &T, bool Write, bool Async = false,
              bool Copy = false) {
    step(T.At, SiteKind::Access,
         fact::Access{Write, T.Tensor, StreamRef::current(), Async, Copy});
  }
  void hostAccess(const SitedTensor &T) {
    step(T.At, SiteKind::Access, fact::HostAccess{false, T.Tensor});
  }
  // The host waits for the current stream (a blocking copy to the host).
  void syncCurrent() {
    step(C.AtCall, SiteKind::Other,
         fact::StreamSync{StreamRef::current(), false, {}, {}, false});
  }
  // The same, when \p T is not known to live on the host.
  void syncCurrentUnlessHost(TensorRef T) {
    fact::StreamSync S{StreamRef::current(), false, {}, {}, false};
    S.A = T;
    S.UnlessHost = true;
    step(C.AtCall, SiteKind::Other, S);
  }
  void readAll(const SitedTensor *Except = nullptr) {
    for (const SitedTensor &A : C.Args)
      if (&A != Except)
        access(A, /*Write=*/false);
  }
  // The call's result, if it returns a new tensor.
  void allocate(Placement P, bool Async = false, bool Unowned = false) {
    if (!C.Result)
      return;
    fact::Allocate A;
    A.Result = *C.Result;
    A.Unowned = Unowned;
    A.Host = P == Placement::Host || P == Placement::PinnedHost;
    A.Pinned = P == Placement::PinnedHost;
    A.Async = Async;
    A.AllocateOnly = C.AllocateOnly;
    // On a device named by a constant: on that device's current stream.
    if (!A.Host && C.Device != StreamRef::NoDevice)
      A.Stream = StreamRef::currentOf(C.Device);
    if (P == Placement::Source && C.Self)
      A.Like = C.Self->Tensor;
    else if (P == Placement::Source && !C.Args.empty())
      A.Like = C.Args.front().Tensor;
    step(C.AtCall, SiteKind::Allocation, A);
  }
  void step(unsigned At, SiteKind K, Fact::Op What) {
    Out.push_back({At, K, std::move(What)});
  }

  Recipe method();
  Recipe function();

private:
  const TensorCall &C;
  Recipe Out;
};

Recipe Cook::method() {
  const SitedTensor &Self = *C.Self;
  switch (C.Effect) {
  case E::TensorRawPointer:
    // Host code reads through the pointer; for device memory this is no
    // access (the solver ignores it unless the tensor lives on the host).
    if (!C.PointerKept)
      hostAccess(Self);
    break;
  case E::TensorInPlace:
    readAll();
    access(Self, /*Write=*/true);
    break;
  case E::TensorCopyFrom:
    // A host<->device copy does not block the host when non_blocking.
    if (!C.Args.empty())
      access(C.Args.front(), /*Write=*/false, C.Async, /*Copy=*/true);
    access(Self, /*Write=*/true, C.Async, /*Copy=*/true);
    // A blocking copy_ waits for the stream only when one side is on the
    // host; the solver decides, knowing where each tensor lives.
    if (!C.Async && !C.Args.empty()) {
      fact::StreamSync S;
      S.IfHostInvolved = true;
      S.A = Self.Tensor;
      S.B = C.Args.front().Tensor;
      step(C.AtCall, SiteKind::Other, S);
    }
    break;
  case E::TensorRecordStream:
    step(C.AtCall, SiteKind::Other, fact::RecordStream{Self.Tensor, C.Stream});
    break;
  case E::TensorHostRead:
    // item(), tolist(): the host reads the memory (of a host tensor: now;
    // of a device one: after a copy that waits for the current stream).
    hostAccess(Self);
    access(Self, /*Write=*/false);
    syncCurrent();
    break;
  case E::TensorToHost:
    access(Self, /*Write=*/false, /*Async=*/false, /*Copy=*/true);
    syncCurrent();
    allocate(Placement::Host);
    break;
  case E::TensorTo: {
    bool ToHost =
        C.Place == Placement::Host || C.Place == Placement::PinnedHost;
    // non_blocking to a device says the source is pinned host memory, when
    // nothing else says where it is.
    if (C.Async && C.Place == Placement::Device)
      step(Self.At, SiteKind::Other, fact::HostByUse{Self.Tensor, true});
    access(Self, /*Write=*/false, C.Async, /*Copy=*/true);
    if (ToHost && !C.Async)
      syncCurrent();
    // A non_blocking copy to the host lands in pinned memory (_to_copy pins
    // its result so that the copy can be asynchronous).
    allocate(ToHost && C.Async ? Placement::PinnedHost : C.Place, C.Async);
    // A blocking copy from the host to the device waits for the current
    // stream too, after the copy into the result (the copy from pageable
    // memory is followed by a stream synchronize; measured): the result is
    // complete when it returns. Only when the source is on the host, which
    // the solver knows.
    if (!ToHost && !C.Async && C.Place == Placement::Device) {
      fact::StreamSync S;
      S.IfHostInvolved = true;
      S.A = Self.Tensor;
      step(C.AtCall, SiteKind::Other, S);
    }
    break;
  }
  case E::TensorPinMemory:
    access(Self, /*Write=*/false);
    allocate(Placement::PinnedHost);
    break;
  case E::TensorOp:
    readAll();
    access(Self, /*Write=*/false);
    allocate(Placement::Device);
    break;
  case E::TensorSizedByData:
    // The kernel counts on the current stream, the host waits for it to
    // read how many elements the result has, then allocates the result
    // (aten/src/ATen/native/cuda/Nonzero.cu: a stream synchronize).
    readAll();
    access(Self, /*Write=*/false);
    syncCurrentUnlessHost(Self.Tensor);
    allocate(Placement::Source);
    break;
  default:
    // Views, lists of views, metadata: the front end follows the value.
    break;
  }
  return std::move(Out);
}

Recipe Cook::function() {
  const SitedTensor *Written = nullptr;
  if (!C.Args.empty()) {
    if (C.Effect == E::AtenInPlace || C.Effect == E::AtenOutFirst)
      Written = &C.Args.front();
    else if (C.Effect == E::AtenOutLast)
      Written = &C.Args.back();
  }
  switch (C.Effect) {
  case E::AtenFactory:
  case E::AtenFromBlob:
    allocate(C.Place, false, C.Effect == E::AtenFromBlob);
    // Host data copied to the device: built on the host, then copied as
    // by a blocking to(device), which waits for the current stream (the
    // copy from pageable memory is followed by a stream synchronize).
    if (C.FromHostData && C.Place == Placement::Device)
      syncCurrent();
    break;
  case E::AtenInPlace:
  case E::AtenOutFirst:
  case E::AtenOutLast:
  case E::AtenOp:
    readAll(Written);
    if (Written)
      access(*Written, /*Write=*/true);
    else
      allocate(Placement::Device);
    break;
  case E::AtenSizedByData:
    readAll();
    if (!C.Args.empty())
      syncCurrentUnlessHost(C.Args.front().Tensor);
    allocate(Placement::Source);
    break;
  default:
    break;
  }
  return std::move(Out);
}

} // namespace

Recipe recipeOf(const TensorCall &C) {
  Cook K(C);
  return C.Self ? K.method() : K.function();
}

} // namespace streamsafe
