// The privacy page's and the profile's "Your data" words, in English: a catalogue of
// their own (features/privacy shows them), loaded with them (not in the first load; docs/decisions/0022-personal-data.md).
// hi.ts and pa.ts are typed PrivacyText, so tsc refuses a missing key.

export const en = {
  page: {
    title: 'Your data and your privacy',
    intro:
      'We keep only what we need to send an ambulance to you and to look after the patient. This page says what we keep, why, for how long, who sees it, and how you can take it or delete it.',
    keptTitle: 'What we keep, and why',
    kept: [
      ['Your account', 'Your username, email, phone number and the place you saved, so that you can sign in, we can call you, and an ambulance knows where to go. Your password is kept only in a scrambled form that cannot be read back.'],
      ['Your bookings', 'The patient’s name, age, gender and condition, where to pick them up (with the landmark you wrote), your phone number for the crew, and when each step of the trip happened: so that the crew finds you and can care for the patient.'],
      ['Your phone’s alerts', 'If you turn alerts on, the address your browser gives us to send them. Signing out stops them.'],
      ['Links you share', 'Family who open your link see the ambulance, the hospital and the time to arrive. They never see the patient, the pickup or your phone number.'],
    ],
    howLongTitle: 'How long we keep it',
    erasedAfter: (days: number) =>
      `Patient details, your phone number on a booking and the exact pickup: erased ${days} days after the trip ends (the service may set a different period). The booking stays for our statistics without them, its pickup only to about 1 km.`,
    howLong: [
      'Your account: until you delete it.',
      'Signing in: 30 days from your last visit, 90 days at most.',
      'Alerts on your phone: 30 days from your last visit.',
      'Shared links: they stop 1 hour after the trip ends.',
      'Where an ambulance is: only its latest position is kept, and for 30 days at most.',
    ],
    whoTitle: 'Who sees it',
    who: [
      'You see everything about your bookings.',
      'The crew of the ambulance sees the patient, the pickup and your phone number while they are coming to you.',
      'The control room (our dispatchers) sees bookings to run the service. They see a patient’s age, gender and condition one booking at a time, and each time they open them it is recorded. Your data download lists who looked.',
      'Family with your link see the ambulance and the hospital only.',
    ],
    choicesTitle: 'Your choices',
    download: 'Download your data: on your Profile, “Download my data” gives you one file with everything we hold about you.',
    delete:
      'Delete your account: on your Profile, “Delete my account” (your password is asked again). It cannot be done while a booking is open. You are then signed out everywhere, alerts stop, your name, email and phone number are erased, and your bookings stay only as statistics that name nobody.',
    edit: 'Change your email, your place or your password: on your Profile, “Edit Profile”.',
    lawTitle: 'The law',
    law: 'This follows India’s Digital Personal Data Protection Act, 2023, and the GDPR where it applies: you may know what is held about you, have it corrected, and have it erased; nothing is kept longer than it is needed.',
    goProfile: 'Go to your profile',
  },
  yourData: {
    title: 'Your data',
    intro: 'Take everything we hold about you, or delete your account.',
    howWeUse: 'How we use your data',
    download: 'Download my data',
    preparing: 'Preparing...',
    downloaded: 'Your data was downloaded.',
    downloadFailed: 'Your data could not be downloaded. Please try again.',
    delete: 'Delete my account',
    staff: 'Staff accounts are removed by an administrator.',
    dialogTitle: 'Delete your account?',
    dialogText:
      'This cannot be undone. You will be signed out on every device, alerts stop, and your name, email, phone number and patient details are erased. Your bookings stay only as statistics that name nobody.',
    downloadFirst: 'Download your data first if you want to keep it.',
    password: 'Your password',
    passwordRequired: 'Enter your password to delete your account.',
    passwordWrong: 'That password is not correct.',
    cancel: 'Cancel',
    confirm: 'Delete my account',
    deleting: 'Deleting...',
    deleteFailed: 'Your account could not be deleted. Please try again.',
    deleted: 'Your account has been deleted.',
  },
}

export type PrivacyText = typeof en
