#pragma once
// What the provider's lane is, in words, for every engine text that names it (narration,
// faults): a mail provider and its notification emails, or, under provider.effect =
// credit (engine/scenario/knobs.cpp), the balance ledger the lane stands in for and the
// credit notices it takes (the akash incident: a payment webhook crediting a wallet).
#include "engine/text/l10n.hpp"

namespace idemlab {

struct ProviderWords {
  L10n item;      ///< what the service sends it: "notification email" / "credit notice"
  L10n short_item;  ///< the same in a fault's short line: "email" / "credit notice"
  L10n one;       ///< one of them, counted: "one notification email"
  L10n key;       ///< the name of its deduplication key: "email key" / "notice key"
  L10n provider;  ///< the lane: "the mail provider" / "the balance ledger"
};

inline ProviderWords provider_words(bool credits) {
  if (credits) {
    return {{"加值通知", "credit notice"}, {"加值通知", "credit notice"}, {"一条加值通知", "one credit notice"},
            {"通知标识", "notice key"}, {"余额账本", "the balance ledger"}};
  }
  return {{"通知邮件", "notification email"}, {"邮件", "email"}, {"一封通知邮件", "one notification email"},
          {"邮件标识", "email key"}, {"邮件服务商", "the mail provider"}};
}

}  // namespace idemlab
