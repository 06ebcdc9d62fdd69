//===--- TensorMethods.cpp - The methods of a tensor, both languages ------===//
//
// docs/api-model.md (section 5) says what each effect does. Python spells
// some of C++'s methods as properties (t.T, t.data): PyAttribute.
//
//===----------------------------------------------------------------------===//

#include "lib/model/TensorMethods.h"
#include "lib/model/Naming.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe {

namespace {

using E = ApiEffect;

constexpr uint8_t Cpp = CppMethod;
constexpr uint8_t Py = PyMethod;
// A method in C++, a property in Python.
constexpr uint8_t CppPyAttr = CppMethod | PyAttribute;

// ATen's contiguous(), reshape() and flatten() return self or a view when
// the strides allow, and a copy (an op that reads self) otherwise.
constexpr bool MayCopy = true;
constexpr const char *CppApi = "C++ API only (Python has no such method)";
constexpr const char *PyApi = "Python API only (C++ has no such method)";
constexpr const char *PyProperty =
    "a property in Python: t.name is metadata the model need not know";

const TensorMethodRow Rows[] = {
    // Effects of their own.
    {"copy_", E::TensorCopyFrom},
    {"record_stream", E::TensorRecordStream},
    {"reset", E::TensorReset, Cpp, "Python drops a reference with del"},
    {"item", E::TensorHostRead},
    {"tolist", E::TensorHostRead, Py, PyApi},
    {"numpy", E::TensorHostRead, Py, PyApi},
    {"cpu", E::TensorToHost},
    {"to", E::TensorTo},
    {"cuda", E::TensorTo},
    {"pin_memory", E::TensorPinMemory},
    // Results whose size the data decides: the host reads it first.
    {"nonzero", E::TensorSizedByData},
    {"argwhere", E::TensorSizedByData},
    {"masked_select", E::TensorSizedByData},
    // Raw pointers: C++ host code may read through one; Python's
    // data_ptr() is an int handed to other code.
    {"data_ptr", E::TensorRawPointer, Cpp,
     "Python's data_ptr() is an integer (metadata row below)"},
    {"data_ptr", E::TensorMetadata, Py,
     "C++'s data_ptr() is a pointer host code may read (row above)"},
    {"const_data_ptr", E::TensorRawPointer, Cpp, CppApi},
    {"mutable_data_ptr", E::TensorRawPointer, Cpp, CppApi},
    {"accessor", E::TensorRawPointer, Cpp, CppApi},
    {"packed_accessor32", E::TensorRawPointer, Cpp, CppApi},
    {"packed_accessor64", E::TensorRawPointer, Cpp, CppApi},
    {"generic_packed_accessor", E::TensorRawPointer, Cpp, CppApi},
    {"packed_accessor", E::TensorRawPointer, Cpp, CppApi},
    // Views: they share the tensor's storage and touch no memory.
    {"view", E::TensorView},
    {"view_as", E::TensorView},
    {"slice", E::TensorView, Cpp, "Python slices with t[a:b]"},
    {"operator[]", E::TensorView, Cpp, "Python indexes with t[i]"},
    {"narrow", E::TensorView},
    {"select", E::TensorView},
    {"transpose", E::TensorView},
    {"permute", E::TensorView},
    {"expand", E::TensorView},
    {"expand_as", E::TensorView},
    {"as_strided", E::TensorView},
    {"t", E::TensorView},
    {"reshape", E::TensorView, BothMethods, nullptr, MayCopy},
    {"reshape_as", E::TensorView, BothMethods, nullptr, MayCopy},
    {"squeeze", E::TensorView},
    {"unsqueeze", E::TensorView},
    {"flatten", E::TensorView, BothMethods, nullptr, MayCopy},
    {"unflatten", E::TensorView},
    {"contiguous", E::TensorView, BothMethods, nullptr, MayCopy},
    {"detach", E::TensorView},
    {"alias", E::TensorView, Cpp, CppApi},
    {"unfold", E::TensorView},
    {"diagonal", E::TensorView},
    {"movedim", E::TensorView},
    {"moveaxis", E::TensorView},
    {"swapaxes", E::TensorView},
    {"swapdims", E::TensorView},
    {"adjoint", E::TensorView},
    {"conj", E::TensorView},
    {"resolve_conj", E::TensorView},
    {"resolve_neg", E::TensorView},
    {"_conj", E::TensorView, Cpp, CppApi},
    {"variable_data", E::TensorView, Cpp, CppApi},
    {"tensor_data", E::TensorView, Cpp, CppApi},
    {"coalesce", E::TensorView},
    {"values", E::TensorView},
    {"indices", E::TensorView},
    {"view_as_real", E::TensorView, Cpp, "torch.view_as_real(t) in Python"},
    {"view_as_complex", E::TensorView, Cpp,
     "torch.view_as_complex(t) in Python"},
    {"real", E::TensorView, CppPyAttr},
    {"imag", E::TensorView, CppPyAttr},
    {"T", E::TensorView, CppPyAttr},
    {"H", E::TensorView, CppPyAttr},
    {"mT", E::TensorView, CppPyAttr},
    {"mH", E::TensorView, CppPyAttr},
    {"data", E::TensorView, CppPyAttr},
    // Methods returning views of the tensor's pieces (a list or a tuple).
    {"chunk", E::TensorViewList},
    {"split", E::TensorViewList},
    {"unbind", E::TensorViewList},
    {"tensor_split", E::TensorViewList},
    {"unsafe_chunk", E::TensorViewList},
    {"unsafe_split", E::TensorViewList},
    {"split_with_sizes", E::TensorViewList},
    {"unsafe_split_with_sizes", E::TensorViewList},
    {"hsplit", E::TensorViewList},
    {"vsplit", E::TensorViewList},
    {"dsplit", E::TensorViewList},
    // Metadata: no access to the tensor's memory.
    {"size", E::TensorMetadata},
    {"dim", E::TensorMetadata},
    {"ndimension", E::TensorMetadata},
    {"numel", E::TensorMetadata},
    {"nelement", E::TensorMetadata},
    {"get_device", E::TensorMetadata},
    {"stride", E::TensorMetadata},
    {"is_contiguous", E::TensorMetadata},
    {"element_size", E::TensorMetadata},
    {"storage_offset", E::TensorMetadata},
    {"is_pinned", E::TensorMetadata},
    {"is_complex", E::TensorMetadata},
    {"is_floating_point", E::TensorMetadata},
    {"is_signed", E::TensorMetadata},
    {"is_inference", E::TensorMetadata},
    {"has_names", E::TensorMetadata},
    {"is_conj", E::TensorMetadata},
    {"is_neg", E::TensorMetadata},
    {"storage", E::TensorMetadata},
    {"type", E::TensorMetadata},
    {"retain_grad", E::TensorMetadata},
    {"requires_grad_", E::TensorMetadata},
    {"register_hook", E::TensorMetadata},
    // In-place views: they change the tensor's sizes and strides, never
    // its memory (no kernel runs).
    {"squeeze_", E::TensorMetadata},
    {"unsqueeze_", E::TensorMetadata},
    {"transpose_", E::TensorMetadata},
    {"t_", E::TensorMetadata},
    {"as_strided_", E::TensorMetadata},
    {"swapaxes_", E::TensorMetadata},
    {"swapdims_", E::TensorMetadata},
    {"detach_", E::TensorMetadata},
    {"untyped_storage", E::TensorMetadata},
    {"sizes", E::TensorMetadata, Cpp, "t.shape, a property in Python"},
    {"sym_sizes", E::TensorMetadata, Cpp, CppApi},
    {"sym_size", E::TensorMetadata, Cpp, CppApi},
    {"sym_numel", E::TensorMetadata, Cpp, CppApi},
    {"sym_strides", E::TensorMetadata, Cpp, CppApi},
    {"strides", E::TensorMetadata, Cpp, CppApi},
    {"dtype", E::TensorMetadata, Cpp, PyProperty},
    {"scalar_type", E::TensorMetadata, Cpp, CppApi},
    {"options", E::TensorMetadata, Cpp, CppApi},
    {"device", E::TensorMetadata, Cpp, PyProperty},
    {"is_cuda", E::TensorMetadata, Cpp, PyProperty},
    {"is_cpu", E::TensorMetadata, Cpp, PyProperty},
    {"defined", E::TensorMetadata, Cpp, CppApi},
    {"is_non_overlapping_and_dense", E::TensorMetadata, Cpp, CppApi},
    {"itemsize", E::TensorMetadata, Cpp, PyProperty},
    {"nbytes", E::TensorMetadata, Cpp, PyProperty},
    {"layout", E::TensorMetadata, Cpp, PyProperty},
    {"is_sparse", E::TensorMetadata, Cpp, PyProperty},
    {"requires_grad", E::TensorMetadata, Cpp, PyProperty},
    {"key_set", E::TensorMetadata, Cpp, CppApi},
    {"suggest_memory_format", E::TensorMetadata, Cpp, CppApi},
    {"use_count", E::TensorMetadata, Cpp, CppApi},
    {"weak_use_count", E::TensorMetadata, Cpp, CppApi},
    {"is_same", E::TensorMetadata, Cpp, "Python compares with `is`"},
    {"has_storage", E::TensorMetadata, Cpp, CppApi},
    {"name", E::TensorMetadata, Cpp, CppApi},
    {"toString", E::TensorMetadata, Cpp, CppApi},
    {"print", E::TensorMetadata, Cpp, CppApi},
    {"unsafeGetTensorImpl", E::TensorMetadata, Cpp, CppApi},
    {"getIntrusivePtr", E::TensorMetadata, Cpp, CppApi},
    {"is_alias_of", E::TensorMetadata, Cpp, CppApi},
    {"is_view", E::TensorMetadata, Cpp, CppApi},
    {"_base", E::TensorMetadata, Cpp, PyProperty},
    {"grad_fn", E::TensorMetadata, Cpp, PyProperty},
    {"is_leaf", E::TensorMetadata, Cpp, PyProperty},
    {"output_nr", E::TensorMetadata, Cpp, PyProperty},
    {"_version", E::TensorMetadata, Cpp, PyProperty},
    {"is_quantized", E::TensorMetadata, Cpp, PyProperty},
    {"is_meta", E::TensorMetadata, Cpp, PyProperty},
    {"is_mkldnn", E::TensorMetadata, Cpp, PyProperty},
    {"is_nested", E::TensorMetadata, Cpp, PyProperty},
};

struct Index {
  llvm::StringMap<ApiEffect> Cpp, Python, Attribute;
  llvm::StringSet<> MayCopy;
};

const Index &index() {
  static const Index I = [] {
    Index I;
    for (const TensorMethodRow &R : Rows) {
      if (R.Spellings & CppMethod)
        I.Cpp.try_emplace(R.Name, R.Effect);
      if (R.Spellings & PyMethod)
        I.Python.try_emplace(R.Name, R.Effect);
      if (R.Spellings & PyAttribute)
        I.Attribute.try_emplace(R.Name, R.Effect);
      if (R.MayCopy)
        I.MayCopy.insert(R.Name);
    }
    return I;
  }();
  return I;
}

} // namespace

llvm::ArrayRef<TensorMethodRow> tensorMethodRows() { return Rows; }

ApiEffect tensorMethodEffect(llvm::StringRef Name, Language L) {
  const auto &M = L == Language::Cpp ? index().Cpp : index().Python;
  if (auto It = M.find(Name); It != M.end())
    return It->second;
  return naming::isInPlaceMethod(Name) ? E::TensorInPlace : E::TensorOp;
}

ApiEffect tensorAttributeEffect(llvm::StringRef Name) {
  auto It = index().Attribute.find(Name);
  return It == index().Attribute.end() ? E::None : It->second;
}

bool viewMayCopy(llvm::StringRef Name) {
  return index().MayCopy.contains(Name);
}

bool accessesStorage(llvm::StringRef Name) {
  return Name == "untyped_storage" || Name == "storage" ||
         Name == "_typed_storage";
}

bool freesStorageAtZero(llvm::StringRef Accessor, llvm::StringRef Method) {
  return accessesStorage(Accessor) &&
         (Method == "resize_" || Method == "_resize_");
}

bool setsStorage(llvm::StringRef Name) { return Name == "set_"; }

bool swapsStorage(llvm::StringRef Name) { return Name == "data"; }

bool returnsTensorTuple(llvm::StringRef Name) {
  // torch.return_types: named tuples of new tensors.
  static const llvm::StringSet<> Tuples = {"sort",
                                           "topk",
                                           "max",
                                           "min",
                                           "kthvalue",
                                           "median",
                                           "nanmedian",
                                           "mode",
                                           "cummax",
                                           "cummin",
                                           "aminmax",
                                           "var_mean",
                                           "std_mean",
                                           "frexp",
                                           "slogdet",
                                           "unique",
                                           "unique_consecutive",
                                           "histogram",
                                           "geqrf"};
  return Tuples.contains(Name);
}

std::optional<bool> hostWhenTested(llvm::StringRef Name) {
  // A tensor is on the host or on one device: a test that it is on the
  // accelerator fails for a host tensor, one that it is on the CPU holds.
  if (Name == "is_cuda")
    return false;
  if (Name == "is_cpu")
    return true;
  return std::nullopt;
}

} // namespace streamsafe
