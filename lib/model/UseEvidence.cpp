//===--- UseEvidence.cpp - What a use says a value is ---------------------===//

#include "lib/model/UseEvidence.h"
#include "lib/model/Arguments.h"
#include "lib/model/Naming.h"
#include "lib/model/TensorMethods.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe {

namespace {

/// Tensor methods that other values commonly have too: nn.Module (to,
/// cuda, cpu, type, float, half, double, requires_grad_), str (split),
/// dict (values), int and complex (real, imag), any object (data), and the
/// generic verbs a project's own classes often define (flatten, view,
/// select, expand, chunk, size, dim, storage, register_hook, ...).
bool sharedWithOtherValues(llvm::StringRef Name) {
  static const llvm::StringSet<> Shared = {
      "to",     "cuda",    "cpu",           "type",           "float",
      "half",   "double",  "bfloat16",      "requires_grad_", "split",
      "values", "real",    "imag",          "data",           "size",
      "copy",   "index",   "count",         "flatten",        "unflatten",
      "view",   "expand",  "select",        "unfold",         "coalesce",
      "chunk",  "storage", "register_hook", "retain_grad",    "indices",
      "t",      "dim",     "diagonal",      "conj",           "adjoint"};
  return Shared.contains(Name);
}

} // namespace

bool pyMethodProvesTensor(llvm::StringRef Name) {
  if (sharedWithOtherValues(Name))
    return false;
  // An in-place op by the naming convention (`add_`, `zero_`), or a method
  // the model spells for Python.
  if (naming::isInPlaceMethod(Name))
    return true;
  for (const TensorMethodRow &R : tensorMethodRows())
    if ((R.Spellings & PyMethod) && Name == R.Name)
      return true;
  return false;
}

bool pyKeywordProvesTensor(llvm::StringRef Name, llvm::StringRef Keyword) {
  return Name == "cuda" && Keyword == arguments::NonBlocking;
}

bool pyAttributeProvesTensor(llvm::StringRef Name) {
  // Properties only tensors have (nn.Parameter is a tensor).
  static const llvm::StringSet<> Properties = {
      "dtype", "is_cuda", "grad_fn", "is_leaf", "grad", "mT", "mH"};
  return Properties.contains(Name);
}

bool pyUnpackedResultProvesTensor(llvm::StringRef Name) {
  // Not max, min or mode: an array's max() of a pair, or a pandas
  // Series's mode(), unpacks too.
  static const llvm::StringSet<> Names = {
      "sort",    "topk",     "kthvalue", "cummax", "cummin",
      "aminmax", "var_mean", "std_mean", "median", "nanmedian"};
  return Names.contains(Name) && returnsTensorTuple(Name);
}

unsigned pyTorchFunctionTensorOperands(llvm::StringRef Bare) {
  // Binary ops whose both operands are tensors (no scalar overload).
  static const llvm::StringSet<> Two = {
      "maximum", "minimum", "fmax",     "fmin",    "matmul", "mm",       "bmm",
      "dot",     "equal",   "allclose", "isclose", "cdist",  "bucketize"};
  static const llvm::StringSet<> One = {
      "clone",         "abs",       "exp",
      "log",           "sqrt",      "rsqrt",
      "sigmoid",       "tanh",      "softmax",
      "log_softmax",   "transpose", "permute",
      "squeeze",       "unsqueeze", "numel",
      "argmax",        "argmin",    "topk",
      "sort",          "argsort",   "masked_fill",
      "index_select",  "gather",    "nonzero",
      "narrow",        "cumsum",    "logsumexp",
      "amax",          "amin",      "isnan",
      "isinf",         "isfinite",  "nan_to_num",
      "clamp",         "clamp_min", "clamp_max",
      "flip",          "roll",      "repeat_interleave",
      "masked_select", "index_add", "scatter",
      "scatter_add",   "sum",       "mean"};
  if (Two.contains(Bare))
    return 2;
  return One.contains(Bare) ? 1 : 0;
}

} // namespace streamsafe
