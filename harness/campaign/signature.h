// The signature a campaign groups findings by, so that a thousand traces diverging for one reason
// make one group, minimized once: for a divergence its class, what differs, the plugins concerned
// and the shape of both sides' one-line outcomes; for a child that failed, "crash", the side and
// the shape of the error. A shape is the text with names and numbers stripped: every word holding
// a digit becomes '#', and the divergent pod's name and namespace become '<pod>', so "bound to
// n3" and "bound to n1", or "0/3 nodes are available" and "0/5 nodes ...", fall together.
#ifndef SCHEDCHECK_HARNESS_CAMPAIGN_SIGNATURE_H_
#define SCHEDCHECK_HARNESS_CAMPAIGN_SIGNATURE_H_

#include <string>

#include "harness/diff/diff.h"

namespace schedcheck::campaign {

// `text` with every word (a run of letters, digits, '-', '_', '.', ':' or '/') that holds a digit
// replaced by '#', after each occurrence of `pod` ("ns/name", and its name alone) by "<pod>".
std::string Shape(const std::string& text, const std::string& pod = "");

// "hard outcome [NodeResourcesFit] bound to # | unschedulable: #/# nodes are available: ..."
std::string DivergenceSignature(const diff::Divergence& d);

// What a side's failure comes to, without the wording that depends on timing (whether the
// client first saw the child close its stdin or its stdout end): "at Hello: exited with status
// 3", "at Events: killed by signal 11", "at Events: no answer in time", "at Hello: garbage on
// stdout"; else the shape of the error's first line. The request kind is the word after
// "request N (" in the protocol client's errors.
std::string CrashCause(const std::string& message);

// "crash candidate at Hello: exited with status 3" (`side`: "baseline" or "candidate").
std::string CrashSignature(const std::string& side, const std::string& message);

}  // namespace schedcheck::campaign

#endif  // SCHEDCHECK_HARNESS_CAMPAIGN_SIGNATURE_H_
