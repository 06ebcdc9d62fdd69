//===--- Placement.cpp - Which CUDA device a Python value names -----------===//
//
// The Python rendering of the device part of lib/frontend/LowerPlacement.cpp:
// 'cuda:1', torch.device('cuda:1'), torch.device('cuda', 1) and the integer
// 1 name device 1; a name bound once to one of them does too. A tensor made
// on device 1 is allocated on that device's current stream,
// torch.cuda.current_stream(1) is that stream, and `with
// torch.cuda.device(1):` makes device 1 current over its body (a device
// guard, as c10::cuda::CUDAGuard). A device the analysis cannot read is
// assumed to be the current one, as in single-device code; so is cuda:0 in
// a function that names no other device (single-GPU code that spells the
// index out).
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

// Does \p N (outside nested defs and lambdas) name a CUDA device other
// than 0 by a constant: 'cuda:1', or an integer argument of a device API?
static bool namesOtherDevice(TSNode N, const SourceFile &F, const Imports &I) {
  if (ts_node_is_null(N))
    return false;
  llvm::StringRef T = type(N);
  if (T == "function_definition" || T == "lambda" || T == "class_definition")
    return false;
  if (T == "string") {
    llvm::StringRef Text = F.text(N).trim("'\"");
    unsigned V = 0;
    return Text.consume_front("cuda:") && !Text.getAsInteger(10, V) && V;
  }
  auto Positive = [&](TSNode X) {
    return is(unparen(X), "integer") &&
           F.text(unparen(X)).find_first_not_of("0_") != llvm::StringRef::npos;
  };
  if (T == "keyword_argument") {
    llvm::StringRef Name = F.text(field(N, "name"));
    if ((Name == "device" || Name == "index") && Positive(field(N, "value")))
      return true;
  }
  if (T == "call") {
    TSNode Fn = field(N, "function");
    std::string Q = I.qualify(Fn);
    bool DeviceApi =
        Q == "torch.device" || Q == "torch.cuda.device" ||
        Q == "torch.cuda.current_stream" ||
        (is(Fn, "attribute") && (F.text(field(Fn, "attribute")) == "cuda" ||
                                 F.text(field(Fn, "attribute")) == "to"));
    if (DeviceApi)
      for (TSNode A : children(field(N, "arguments")))
        if (Positive(A))
          return true;
  }
  uint32_t Count = ts_node_named_child_count(N);
  for (uint32_t K = 0; K < Count; ++K)
    if (namesOtherDevice(ts_node_named_child(N, K), F, I))
      return true;
  return false;
}

std::optional<int8_t> Builder::deviceIndex(TSNode N, unsigned Depth) {
  N = unparen(N);
  if (ts_node_is_null(N) || Depth > 8)
    return std::nullopt;
  // Code that names no device but cuda:0 is single-device code written
  // with an explicit index: cuda:0 is the current device there, as 'cuda'.
  if (Depth == 0) {
    if (!Memo.MultiDevice) {
      TSNode Body =
          Root->K == Scope::Module ? Root->Node : field(Root->Node, "body");
      Memo.MultiDevice = false;
      for (TSNode S : children(Body))
        *Memo.MultiDevice = *Memo.MultiDevice || namesOtherDevice(S, F, I);
    }
    std::optional<int8_t> D = deviceIndex(N, 1);
    return D && *D == 0 && !*Memo.MultiDevice ? std::nullopt : D;
  }
  auto InRange = [](int64_t V) -> std::optional<int8_t> {
    if (V < 0 || V > 127)
      return std::nullopt;
    return int8_t(V);
  };
  if (is(N, "integer")) {
    std::optional<int64_t> V = constantInt(N);
    return V ? InRange(*V) : std::nullopt;
  }
  if (is(N, "string")) {
    llvm::StringRef Text = F.text(N).trim("'\"");
    unsigned V = 0;
    if (!Text.consume_front("cuda:") || Text.getAsInteger(10, V))
      return std::nullopt;
    return InRange(V);
  }
  if (is(N, "call") && I.qualify(field(N, "function")) == "torch.device") {
    // torch.device('cuda:1'), torch.device('cuda', 1), index=1.
    Args A = argsOf(N);
    TSNode Type = A.get(0, "type");
    TSNode Index = A.get(1, "index");
    if (ts_node_is_null(Index))
      return deviceIndex(Type, Depth + 1);
    if (!is(unparen(Type), "string") ||
        F.text(unparen(Type)).trim("'\"") != "cuda")
      return std::nullopt;
    std::optional<int64_t> V = constantInt(Index);
    return V ? InRange(*V) : std::nullopt;
  }
  if (is(N, "identifier")) {
    // A name of this scope bound once (a parameter is not known).
    const Scope *Owner = St->S->owner(F.text(N));
    if (!Owner || Owner->Elements.count(F.text(N)) ||
        llvm::any_of(Owner->Params,
                     [&](TSNode P) { return F.text(P) == F.text(N); }))
      return std::nullopt;
    std::vector<TSNode> B = Owner->Bindings.lookup(F.text(N));
    if (B.size() != 1 || ts_node_is_null(B.front()))
      return std::nullopt;
    return deviceIndex(B.front(), Depth + 1);
  }
  return std::nullopt;
}

void Builder::enterDevice(TSNode Call, TSNode Body) {
  Args A = argsOf(Call);
  TSNode Arg = A.get(0, "device");
  expr(Arg);
  std::optional<int8_t> D = deviceIndex(Arg);
  if (!D)
    return; // not known: assumed to be the current device
  fact::GuardEnter G;
  G.Guard = syntheticVar("device", VarClass::Guard, Call);
  G.Stream = StreamRef::currentOf(*D);
  G.Device = *D;
  emit(site(SiteKind::GuardEnter, Call), G);
  pushGuardFrame(G.Guard, Body);
}

} // namespace streamsafe::py
