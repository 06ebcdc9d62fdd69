//===--- TensorCalls.cpp - Python tensor methods and torch functions ------===//
//
// `t.method(...)` of a tensor and `torch.name(...)`: their operands, read
// off the syntax (non_blocking, device, pin_memory, out=), are handed to the
// model's recipes (lib/model/Recipes.h), which both front ends lower
// through.
//
//===----------------------------------------------------------------------===//

#include "lib/lower/Placement.h"
#include "lib/lower/Regions.h"
#include "lib/model/Arguments.h"
#include "lib/model/Naming.h"
#include "lib/model/TensorMethods.h"
#include "lib/model/TorchFunctions.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"

namespace streamsafe::py {

// What device= (\p Device, read as \p D) and pin_memory= say of where a
// result lives (lib/lower/Placement.h).
static PlacementStatement placementStatement(TSNode Device, llvm::StringRef D,
                                             TSNode Pin, const SourceFile &F) {
  using Statement = PlacementStatement;
  Statement S;
  if (!ts_node_is_null(Device))
    S.D = D == "cpu"    ? Statement::Device::Host
          : D == "cuda" ? Statement::Device::Cuda
                        : Statement::Device::Unreadable;
  if (!ts_node_is_null(Pin))
    S.P = literalTrue(F, Pin) ? Statement::Pin::True
          : is(Pin, "false") || F.text(Pin) == "False"
              ? Statement::Pin::False
              : Statement::Pin::Unreadable;
  return S;
}

void Builder::emitRecipe(const Recipe &R, llvm::ArrayRef<TSNode> Nodes) {
  // One site per node and kind, as in every front end.
  llvm::SmallDenseMap<std::pair<unsigned, unsigned>, SiteId, 4> Sites;
  for (const RecipeStep &S : R) {
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
    // Where the result lives (lib/lower/Placement.h): what device= and
    // pin_memory= say.
    bool Like = naming::isLikeFactory(Bare);
    TSNode Dev = A.keyword(arguments::Device);
    C.Place =
        placementOf(placementStatement(Dev, device(Dev),
                                       A.keyword(arguments::PinMemory), F),
                    Like);
    if (C.Place == Placement::Source && First.Class == VarClass::Tensor)
      addTensorArg(First, A.Positional.front(), C, Nodes);
    else if (C.Place == Placement::Source)
      C.Place = Placement::Device; // a source the analysis does not follow
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
  emitRecipe(recipeOf(C), Nodes);
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
  // In-place methods and copy_() return their object (views were above).
  bool ReturnsSelf = methodResultAliasesObject(Effect);
  switch (Effect) {
  case ApiEffect::TensorInPlace:
  case ApiEffect::TensorOp:
  case ApiEffect::TensorSizedByData:
    for (TSNode P : A.Positional)
      addTensorArg(expr(P), P, C, Nodes);
    for (const auto &[K, P] : A.Keywords)
      addTensorArg(expr(P), P, C, Nodes);
    Returns = Effect != ApiEffect::TensorInPlace;
    break;
  case ApiEffect::TensorCopyFrom: {
    TSNode SrcNode = A.get(0, "src");
    Value Src = expr(SrcNode);
    // t.copy_(inputs[k]): only a tensor is copied from.
    if (Src.Class != VarClass::Tensor && !Src.Object && !Src.List)
      if (Value E = parameterElement(SrcNode); E.Class == VarClass::Tensor)
        Src = E;
    if (Src.Class == VarClass::Tensor) {
      C.Args.push_back({Src.Tensor, unsigned(Nodes.size())});
      Nodes.push_back(SrcNode);
    }
    C.Async = nonBlocking(A, 1);
    Returns = false;
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
    // cuda(), to(device, dtype, non_blocking, copy), to(dtype): a to()
    // that names no device keeps its source's placement
    // (lib/lower/Placement.h).
    C.Async = nonBlocking(A, Method == "to" ? 1 : 0);
    C.Place = Placement::Device;
    TSNode Dev = A.get(0, arguments::Device);
    if (Method == "to") {
      bool Dtype = !ts_node_is_null(A.keyword("dtype")) &&
                   A.Positional.empty() &&
                   ts_node_is_null(A.keyword(arguments::Device));
      if (!ts_node_is_null(Dev) && !Dtype) {
        Value DevValue = expr(Dev);
        // to(torch.float16): a dtype, no device.
        Dtype = device(Dev).empty() && DevValue.Class == VarClass::Other &&
                I.qualify(Dev).rfind("torch.", 0) == 0;
      }
      TSNode Named = Dtype ? TSNode{} : Dev;
      C.Place =
          placementOf(placementStatement(Named, device(Named), TSNode{}, F),
                      /*Like=*/true);
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
  emitRecipe(recipeOf(C), Nodes);
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

} // namespace streamsafe::py
