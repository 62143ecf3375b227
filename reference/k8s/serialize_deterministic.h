// A message's binary form with map entries in key order, so that equal messages give equal bytes
// (protobuf leaves map order unspecified otherwise): a comparable key for a message.
#ifndef SCHEDCHECK_REFERENCE_K8S_SERIALIZE_DETERMINISTIC_H_
#define SCHEDCHECK_REFERENCE_K8S_SERIALIZE_DETERMINISTIC_H_

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>

#include <string>

namespace schedcheck::k8s {

inline std::string SerializeDeterministic(const google::protobuf::Message& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }  // the streams trim `out` to the bytes written when they go
  return out;
}

}  // namespace schedcheck::k8s

#endif  // SCHEDCHECK_REFERENCE_K8S_SERIALIZE_DETERMINISTIC_H_
