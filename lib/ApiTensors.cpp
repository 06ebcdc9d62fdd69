//===--- ApiTensors.cpp - Tensor methods, factories, the allocator --------===//
//
// API_MODEL.md §5 and §6. Every ATen op enqueues on the current stream:
// it reads its tensor arguments and allocates its result there. Metadata
// methods touch no device memory; views share their base's storage;
// factories allocate without reading anything.
//
//===----------------------------------------------------------------------===//

#include "lib/ApiModel.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe {

TensorMethod classifyTensorMethod(llvm::StringRef Name) {
  static const llvm::StringMap<TensorMethod> Table = [] {
    llvm::StringMap<TensorMethod> T;
    for (const char *N : {"sizes",
                          "size",
                          "sym_sizes",
                          "sym_size",
                          "dim",
                          "ndimension",
                          "numel",
                          "sym_numel",
                          "dtype",
                          "scalar_type",
                          "options",
                          "device",
                          "get_device",
                          "is_cuda",
                          "is_cpu",
                          "defined",
                          "strides",
                          "stride",
                          "sym_strides",
                          "is_contiguous",
                          "is_non_overlapping_and_dense",
                          "element_size",
                          "itemsize",
                          "nbytes",
                          "layout",
                          "is_sparse",
                          "requires_grad",
                          "storage_offset",
                          "key_set",
                          "is_pinned",
                          "suggest_memory_format",
                          "use_count",
                          "weak_use_count",
                          "is_same",
                          "has_storage",
                          "is_complex",
                          "is_floating_point",
                          "is_signed",
                          "name",
                          "toString",
                          "print",
                          "unsafeGetTensorImpl",
                          "getIntrusivePtr",
                          "is_alias_of",
                          "is_view",
                          "_base",
                          "grad_fn",
                          "is_leaf",
                          "output_nr",
                          "_version",
                          "retain_grad",
                          "is_quantized",
                          "is_meta",
                          "is_mkldnn",
                          "is_nested",
                          "is_inference",
                          "has_names",
                          "storage",

                          "is_conj",
                          "is_neg",
                          "type"})
      T[N] = TensorMethod::Metadata;
    for (const char *N : {"view",
                          "view_as",
                          "slice",
                          "narrow",
                          "select",
                          "operator[]",
                          "transpose",
                          "permute",
                          "expand",
                          "expand_as",
                          "as_strided",
                          "t",
                          "reshape",
                          "reshape_as",
                          "squeeze",
                          "unsqueeze",
                          "flatten",
                          "unflatten",
                          "contiguous",
                          "detach",
                          "alias",
                          "unfold",
                          "diagonal",
                          "real",
                          "imag",
                          "movedim",
                          "moveaxis",
                          "swapaxes",
                          "swapdims",
                          "mT",
                          "mH",
                          "T",
                          "H",
                          "adjoint",
                          "view_as_real",
                          "view_as_complex",
                          "conj",
                          "resolve_conj",
                          "resolve_neg",
                          "_conj",
                          "variable_data",
                          "tensor_data",
                          "coalesce",
                          "values",
                          "indices"})
      T[N] = TensorMethod::View;
    for (const char *N : {"data_ptr", "const_data_ptr", "mutable_data_ptr",
                          "accessor", "packed_accessor32", "packed_accessor64",
                          "generic_packed_accessor", "packed_accessor"})
      T[N] = TensorMethod::RawPointer;
    T["record_stream"] = TensorMethod::RecordStream;
    T["reset"] = TensorMethod::Reset;
    T["item"] = TensorMethod::HostRead;
    T["cpu"] = TensorMethod::HostRead;
    T["to"] = TensorMethod::To;
    return T;
  }();
  auto It = Table.find(Name);
  if (It != Table.end())
    return It->second;
  if (Name.ends_with("_") ||
      (Name.starts_with("operator") && Name.ends_with("=")))
    return TensorMethod::InPlace;
  return TensorMethod::Op;
}

AtenFunction classifyAtenFunction(llvm::StringRef Name) {
  // Name is unqualified here: at::empty and torch::empty behave alike.
  static const llvm::StringSet<> Factories = {
      "empty",      "empty_like", "empty_strided", "zeros",
      "zeros_like", "ones",       "ones_like",     "full",
      "full_like",  "rand",       "rand_like",     "randn",
      "randn_like", "randint",    "randint_like",  "randperm",
      "arange",     "range",      "linspace",      "logspace",
      "eye",        "tensor",     "scalar_tensor", "empty_quantized",
      "normal",     "bernoulli",  "tril_indices",  "triu_indices",
      "zeros_out",  "ones_out",   "empty_out"};
  if (Name == "from_blob")
    return AtenFunction::Foreign;
  if (Factories.contains(Name))
    return AtenFunction::Factory;
  if (Name.ends_with("_outf"))
    return AtenFunction::OutLast;
  if (Name.ends_with("_out"))
    return AtenFunction::OutFirst;
  if (Name.ends_with("_") && !Name.starts_with("_"))
    return AtenFunction::InPlace;
  return AtenFunction::Op;
}

ApiEffect classifyAllocatorApi(llvm::StringRef Name) {
  if (Name == "c10::cuda::CUDACachingAllocator::recordStream")
    return ApiEffect::AllocatorRecordStream;
  return ApiEffect::None;
}

} // namespace streamsafe
