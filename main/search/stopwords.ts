// English function words that carry no intent. Particles such as on/off/up/down/out are kept on purpose:
// they tell turn_on from turn_off.

/** Words dropped from tool text and queries before stemming. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or nor but if then else so than too very of to in into for with by from at as ' +
    'about against between through during before after above below again further once ' +
    'is are was were be been being am do does did doing have has had having will would shall should ' +
    'can could may might must i me my mine myself we us our ours you your yours he him his she her ' +
    'hers it its they them their theirs this that these those what which who whom whose where when ' +
    'why how there here all any both each few more most other some such only own same just also ' +
    'not no please e g eg ie etc via'
  ).split(' '),
);
