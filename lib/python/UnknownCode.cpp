//===--- UnknownCode.cpp - Python calls of code the analysis does not see ===//
//
// A call that is no stream API, no tensor method and no helper the analysis
// runs in place is code it does not see: its tensor arguments are read on
// the current stream there (docs/python.md, "Code the analysis does not
// see"), what it is given may be kept, and a wait or a blocking copy of a
// value not followed is taken to order what it may order.
//
//===----------------------------------------------------------------------===//

#include "lib/model/Arguments.h"
#include "lib/model/TensorMethods.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::py {

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

/// The name a callee ends in (`set_cuda` of `self.db.set_cuda`; empty:
/// not a name).
static llvm::StringRef lastName(TSNode Fn, const SourceFile &F) {
  Fn = unparen(Fn);
  if (is(Fn, "attribute"))
    Fn = field(Fn, "attribute");
  return is(Fn, "identifier") ? F.text(Fn) : llvm::StringRef();
}

Value Builder::unknownCode(TSNode N, const Args &A, lower::UnknownCallee Who) {
  // Program code named as a CUDA op, called or handed to a wrapper that
  // calls it (`profile(name, self.db.set_cuda, *args)`).
  if (Who == lower::UnknownCallee::Program &&
      (lower::namesDeviceOp(lastName(field(N, "function"), F)) ||
       llvm::any_of(A.Positional, [&](TSNode P) {
         return is(unparen(P), "attribute") &&
                lower::namesDeviceOp(lastName(P, F));
       })))
    Who = lower::UnknownCallee::DeviceOp;
  // What it may do: lib/lower/UnknownCode.h, as for C++.
  lower::UnknownEffects E = lower::unknownCallEffects(Who);
  Value R =
      unknownCall(A, E.KeepsTensors, E.ReadsTensors, E.ReadsInStreamOrder);
  if (E.MayWaitForThreads)
    emit(site(SiteKind::Other, N), fact::HostWait{NoVar});
  return R;
}

Value Builder::unknownCall(const Args &A, bool Escapes, bool Reads,
                           bool InStreamOrder) {
  // Code the analysis does not see that is handed a tensor computes with it
  // on the current stream (a module's forward, an extension, a CPU op that
  // reads a host tensor now), as the C++ front end's unknown callee
  // (lib/frontend/LowerOtherCalls.cpp); and it may keep it.
  // It does not read memory nobody wrote: that part it fills.
  auto Read = [&](const TensorRef &T, TSNode P) {
    fact::Access X{false, T, StreamRef::current()};
    X.FillsIfBlank = true;
    // Host memory read on the stream: as a non_blocking copy reads it.
    X.Copy = X.Async = InStreamOrder;
    emit(site(SiteKind::Access, P), X);
  };
  auto Argument = [&](TSNode P) {
    Value V = expr(P);
    if (Reads) {
      if (V.Class == VarClass::Tensor && V.Tensor)
        Read(V.Tensor, P);
      for (const TensorRef &T : elements(V))
        Read(T, P);
    }
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

} // namespace streamsafe::py
