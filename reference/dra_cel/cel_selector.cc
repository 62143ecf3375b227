#include "reference/dra_cel/cel_selector.h"

#include <cstdlib>
#include <cstring>
#include <utility>

// The C ABI of reference/dra_cel/go/cel.go (libdracel.a). Declared here rather than through the
// header cgo generates, which is not kept. Error strings are malloc'd; the caller frees them.
extern "C" {
uintptr_t dracel_compile(char* expr, size_t expr_len, int features, char** err);
int dracel_matches(uintptr_t handle, char* device, size_t device_len, char** err);
uintptr_t dracel_device(char* device, size_t device_len, char** err);
int dracel_matches_device(uintptr_t handle, uintptr_t device, char** err);
void dracel_free(uintptr_t handle);
char* dracel_module_version(char* path);
}

namespace schedcheck::reference {
namespace {

// Feature bits of dracel_compile.
constexpr int kConsumableCapacity = 1 << 0;
constexpr int kListTypeAttributes = 1 << 1;

// Takes ownership of a malloc'd C string from the archive.
std::string TakeCString(char* s) {
  std::string out = s != nullptr ? std::string(s) : std::string("unknown error");
  std::free(s);
  return out;
}

void PutU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void PutString(std::string& out, std::string_view s) {
  PutU32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

// The compact device form of reference/dra_cel/go/device.go.
std::string Encode(const CelDevice& device) {
  std::string out;
  PutString(out, device.driver);
  out.push_back(!device.allow_multiple_allocations   ? 0
                : *device.allow_multiple_allocations ? 2
                                                     : 1);
  PutU32(out, static_cast<uint32_t>(device.attributes.size()));
  for (const auto& [name, value] : device.attributes) {
    PutString(out, name);
    if (const auto* i = std::get_if<int64_t>(&value)) {
      out.push_back('i');
      PutString(out, std::to_string(*i));
    } else if (const auto* b = std::get_if<bool>(&value)) {
      out.push_back('b');
      PutString(out, *b ? "true" : "false");
    } else if (const auto* s = std::get_if<std::string>(&value)) {
      out.push_back('s');
      PutString(out, *s);
    } else {
      out.push_back('v');
      PutString(out, std::get<DeviceVersion>(value).text);
    }
  }
  PutU32(out, static_cast<uint32_t>(device.capacity.size()));
  for (const auto& [name, quantity] : device.capacity) {
    PutString(out, name);
    PutString(out, quantity);
  }
  return out;
}

}  // namespace

Result<CelSelector> CelSelector::Compile(std::string_view expression, CelFeatures features) {
  std::string text(expression);
  int bits = (features.consumable_capacity ? kConsumableCapacity : 0) |
             (features.list_type_attributes ? kListTypeAttributes : 0);
  char* err = nullptr;
  uintptr_t handle = dracel_compile(text.data(), text.size(), bits, &err);
  if (handle == 0) return Error{TakeCString(err)};
  return CelSelector(std::move(text), handle);
}

CelSelector::CelSelector(CelSelector&& other) noexcept
    : expression_(std::move(other.expression_)), handle_(std::exchange(other.handle_, 0)) {}

CelSelector& CelSelector::operator=(CelSelector&& other) noexcept {
  if (this != &other) {
    dracel_free(handle_);
    expression_ = std::move(other.expression_);
    handle_ = std::exchange(other.handle_, 0);
  }
  return *this;
}

CelSelector::~CelSelector() { dracel_free(handle_); }

Result<bool> CelSelector::Matches(const CelDevice& device) const {
  std::string encoded = Encode(device);
  char* err = nullptr;
  int got = dracel_matches(handle_, encoded.data(), encoded.size(), &err);
  if (got < 0) return Error{TakeCString(err)};
  return got == 1;
}

Result<bool> CelSelector::Matches(const PreparedCelDevice& device) const {
  char* err = nullptr;
  int got = dracel_matches_device(handle_, device.handle_, &err);
  if (got < 0) return Error{TakeCString(err)};
  return got == 1;
}

Result<PreparedCelDevice> PreparedCelDevice::Prepare(const CelDevice& device) {
  std::string encoded = Encode(device);
  char* err = nullptr;
  uintptr_t handle = dracel_device(encoded.data(), encoded.size(), &err);
  if (handle == 0) return Error{TakeCString(err)};
  return PreparedCelDevice(handle);
}

PreparedCelDevice::PreparedCelDevice(PreparedCelDevice&& other) noexcept
    : handle_(std::exchange(other.handle_, 0)) {}

PreparedCelDevice& PreparedCelDevice::operator=(PreparedCelDevice&& other) noexcept {
  if (this != &other) {
    dracel_free(handle_);
    handle_ = std::exchange(other.handle_, 0);
  }
  return *this;
}

PreparedCelDevice::~PreparedCelDevice() { dracel_free(handle_); }

std::string LinkedGoModuleVersion(const std::string& module_path) {
  std::string path = module_path;
  return TakeCString(dracel_module_version(path.data()));
}

}  // namespace schedcheck::reference
