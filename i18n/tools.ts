/**
 * English strings of the public tools pages (/tools/...). They load with those pages (see
 * portal/tools/i18n.ts), not with every front-door page. `{{product}}` is filled as in en.ts.
 */
export const toolsEn = {
  tools: {
    review: {
      heading: 'Free app profile review',
      intro: 'Tell us about your app and an analytics specialist will review its set-up: which events you track, how you segment them, and what you could learn that you do not see today. Free, no account needed.',
      appName: 'App name',
      platform: 'Platform',
      choosePlatform: 'Choose a platform',
      platforms: { android: 'Android', ios: 'iOS', web: 'Web', desktop: 'Desktop', other: 'Other' },
      storeUrl: 'Store link',
      storeUrlHint: 'The app store page, or the web site for a web app.',
      email: 'Your email',
      submit: 'Request my free review',
      privacy: 'We use your email only to send you the review.',
      doneTitle: 'Request received',
      doneBody: 'Thank you! We sent a confirmation to {{email}}. Expect our review within a few business days.',
      another: 'Request another review',
      previewLink: 'Explore a sample dashboard',
      whatYouGet: 'What you get',
      points: {
        events: 'A check of your events and segments against your product goals',
        limits: 'Warnings before you hit data limits',
        ideas: 'Three ideas for dashboards your team will use',
      },
    },
    preview: {
      banner: 'You are exploring a sample dashboard with generated data. Nothing you see is real, and nothing can be changed.',
      order: 'Get your own server',
      pricing: 'See pricing',
      loading: 'Loading the sample dashboard…',
    },
  },
};
