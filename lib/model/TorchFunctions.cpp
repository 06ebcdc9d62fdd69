//===--- TorchFunctions.cpp - at::/torch. functions, both languages -------===//

#include "lib/model/TorchFunctions.h"
#include "lib/model/Naming.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe {

namespace {

using E = ApiEffect;

constexpr uint8_t Cpp = CppMethod;
constexpr uint8_t Py = PyMethod;

// Python has no types to say that a function returns no tensor; C++ knows
// it from the declaration.
constexpr const char *Untyped =
    "Python only: C++ knows from the declaration that no tensor is returned";
// Their results are tuples of new tensors (sort, topk, max(dim)) or a bool
// the host reads (equal, allclose), which the model does not follow; their
// inputs are read all the same.
constexpr bool Reads = true;

const TorchFunctionRow Rows[] = {
    // Factories: allocate a new tensor (on the CPU unless the options say
    // otherwise), read no tensor.
    {"empty", E::AtenFactory},
    {"empty_strided", E::AtenFactory},
    {"zeros", E::AtenFactory},
    {"ones", E::AtenFactory},
    {"full", E::AtenFactory},
    {"rand", E::AtenFactory},
    {"randn", E::AtenFactory},
    {"randint", E::AtenFactory},
    {"randperm", E::AtenFactory},
    {"arange", E::AtenFactory},
    {"range", E::AtenFactory},
    {"linspace", E::AtenFactory},
    {"logspace", E::AtenFactory},
    {"eye", E::AtenFactory},
    {"tensor", E::AtenFactory},
    {"scalar_tensor", E::AtenFactory},
    {"empty_quantized", E::AtenFactory, Cpp, "not public in Python"},
    {"normal", E::AtenFactory},
    {"bernoulli", E::AtenFactory},
    {"tril_indices", E::AtenFactory},
    {"triu_indices", E::AtenFactory},
    {"zeros_out", E::AtenFactory, Cpp, "Python writes torch.zeros(out=t)"},
    {"ones_out", E::AtenFactory, Cpp, "Python writes torch.ones(out=t)"},
    {"empty_out", E::AtenFactory, Cpp, "Python writes torch.empty(out=t)"},
    // Memory the caching allocator does not own.
    {"from_blob", E::AtenFromBlob, Cpp,
     "Python wraps foreign memory with torch.frombuffer or DLPack"},
    // Results whose size the data decides: the host reads it first.
    {"nonzero", E::AtenSizedByData},
    {"argwhere", E::AtenSizedByData},
    {"masked_select", E::AtenSizedByData},
    // Functions that return no single tensor: their arguments escape.
    {"device", E::AtenNoTensor, Py, Untyped},
    {"dtype", E::AtenNoTensor, Py, Untyped},
    {"no_grad", E::AtenNoTensor, Py, Untyped},
    {"enable_grad", E::AtenNoTensor, Py, Untyped},
    {"inference_mode", E::AtenNoTensor, Py, Untyped},
    {"set_grad_enabled", E::AtenNoTensor, Py, Untyped},
    {"manual_seed", E::AtenNoTensor, Py, Untyped},
    {"is_tensor", E::AtenNoTensor, Py, Untyped},
    {"is_grad_enabled", E::AtenNoTensor, Py, Untyped},
    {"get_default_dtype", E::AtenNoTensor, Py, Untyped},
    {"set_default_dtype", E::AtenNoTensor, Py, Untyped},
    {"set_default_device", E::AtenNoTensor, Py, Untyped},
    {"compile", E::AtenNoTensor, Py, Untyped},
    {"load", E::AtenNoTensor, Py, Untyped},
    {"save", E::AtenNoTensor, Py, Untyped},
    {"use_deterministic_algorithms", E::AtenNoTensor, Py, Untyped},
    {"numel", E::AtenNoTensor, Py, Untyped},
    {"typename", E::AtenNoTensor, Py, Untyped},
    {"is_floating_point", E::AtenNoTensor, Py, Untyped},
    {"is_complex", E::AtenNoTensor, Py, Untyped},
    {"chunk", E::AtenNoTensor, Py, Untyped},
    {"split", E::AtenNoTensor, Py, Untyped},
    {"unbind", E::AtenNoTensor, Py, Untyped},
    {"tensor_split", E::AtenNoTensor, Py, Untyped},
    {"meshgrid", E::AtenNoTensor, Py, Untyped},
    {"broadcast_tensors", E::AtenNoTensor, Py, Untyped},
    {"sort", E::AtenNoTensor, Py, Untyped, Reads},
    {"topk", E::AtenNoTensor, Py, Untyped, Reads},
    {"max", E::AtenNoTensor, Py, Untyped, Reads},
    {"min", E::AtenNoTensor, Py, Untyped, Reads},
    {"autocast", E::AtenNoTensor, Py, Untyped},
    {"from_numpy", E::AtenNoTensor, Py, Untyped},
    {"as_tensor", E::AtenNoTensor, Py, Untyped},
    {"frombuffer", E::AtenNoTensor, Py, Untyped},
    {"set_printoptions", E::AtenNoTensor, Py, Untyped},
    {"get_device", E::AtenNoTensor, Py, Untyped},
    {"is_nonzero", E::AtenNoTensor, Py, Untyped, Reads},
    {"equal", E::AtenNoTensor, Py, Untyped, Reads},
    {"allclose", E::AtenNoTensor, Py, Untyped, Reads},
    {"can_cast", E::AtenNoTensor, Py, Untyped},
    {"result_type", E::AtenNoTensor, Py, Untyped},
    // torch._utils: what optimizers and reducers (apex, DeepSpeed, Megatron,
    // ColossalAI) flatten buckets with. The flat one is a new tensor (a cat
    // of the inputs' views); the unflattened ones are views of it, in a
    // tuple the model does not follow.
    {"_utils._flatten_dense_tensors", E::AtenOp, Py,
     "torch::utils::flatten_dense_tensors in C++"},
    {"_utils._unflatten_dense_tensors", E::AtenNoTensor, Py, Untyped},
};

struct Index {
  llvm::StringMap<ApiEffect> Cpp, Python;
  llvm::StringSet<> ReadsArguments;
};

const Index &index() {
  static const Index I = [] {
    Index I;
    for (const TorchFunctionRow &R : Rows) {
      if (R.Spellings & CppMethod)
        I.Cpp.try_emplace(R.Name, R.Effect);
      if (R.Spellings & PyMethod)
        I.Python.try_emplace(R.Name, R.Effect);
      if (R.ReadsArguments)
        I.ReadsArguments.insert(R.Name);
    }
    return I;
  }();
  return I;
}

} // namespace

llvm::ArrayRef<TorchFunctionRow> torchFunctionRows() { return Rows; }

ApiEffect torchFunctionEffect(llvm::StringRef Bare, Language L) {
  const auto &M = L == Language::Cpp ? index().Cpp : index().Python;
  if (auto It = M.find(Bare); It != M.end())
    return It->second;
  if (naming::isLikeFactory(Bare))
    return E::AtenFactory;
  if (naming::isOutLast(Bare))
    return E::AtenOutLast;
  if (naming::isOutFirst(Bare))
    return E::AtenOutFirst;
  if (naming::isInPlaceFunction(Bare))
    return E::AtenInPlace;
  return E::AtenOp;
}

ApiEffect pythonTorchFunctionEffect(llvm::StringRef Q) {
  if (Q.consume_front("torch.nn.functional."))
    return Q.contains('.') || Q.empty() ? E::None : E::AtenOp;
  if (!Q.consume_front("torch.") || Q.empty())
    return E::None;
  if (Q.contains('.'))
    return Q.starts_with("_utils.") && index().Python.contains(Q)
               ? index().Python.lookup(Q)
               : E::None;
  // Classes and settings (torch.Size, torch.Generator): no tensor.
  if (Q[0] < 'a' || Q[0] > 'z')
    return E::AtenNoTensor;
  return torchFunctionEffect(Q, Language::Python);
}

bool readsTensorArguments(llvm::StringRef Bare) {
  return index().ReadsArguments.contains(Bare);
}

bool returnsHostValue(llvm::StringRef Bare) {
  return Bare == "equal" || Bare == "allclose" || Bare == "is_nonzero";
}

} // namespace streamsafe
