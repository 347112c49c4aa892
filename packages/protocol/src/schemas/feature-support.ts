import { z } from "zod";

/**
 * `POST /check-feature-support`: the protocol's SDK reports a feature it does not support yet. It sends its
 * options with the feature's `name` (`{ ...options, name }`); `feature_name` names it in the answer. Any
 * other keys are the SDK's options, accepted as they are.
 */
export const featureSupportBody = z.looseObject({
  feature_name: z.string().optional(),
  name: z.string().optional(),
});
