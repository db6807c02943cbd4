import { describe, expect, it } from 'vitest';
import { factRows, factsAfter } from '../test/extracted-turns.ts';
import { rulesExtractor } from './rules-extractor.ts';

const facts = factRows;

async function edges(content: string) {
  const { relations } = await rulesExtractor().extract({
    messages: [{ id: 'm1', role: 'user', content, at: 0 }],
    context: [],
    knownEntities: [],
  });
  return relations.map((r) => [r.from.name, r.relation, r.to.name]);
}

describe('the speaker, said the way people open a chat', () => {
  it('reads "<Name> here" as a name, and nothing from "here" alone', async () => {
    expect(await facts('Maya here from finance.')).toEqual([['speaker', 'name', 'Maya']]);
    expect(await facts('Hey there, Maya here.')).toEqual([['speaker', 'name', 'Maya']]);
    expect(await facts('Looky here, I got this new pup for you!')).toEqual([]);
    expect(await facts('Nobody here.')).toEqual([]);
  });

  it('reads past chat particles after a statement and degree words before what is said', async () => {
    expect(await facts("My bike's frame number is WTU-5521 haha.")).toEqual([
      ['speaker', 'bike frame number', 'WTU-5521'],
    ]);
    expect(await facts('My locker code is 4471 lol 😅')).toEqual([['speaker', 'locker code', '4471']]);
    expect(await facts("I'm seriously allergic to walnuts!!")).toEqual([['speaker', 'allergy', 'walnuts']]);
    expect(await facts('My nephews are so excited about the trip!')).toEqual([]);
  });

  it('reads where the speaker has been living, and a role held "over at" a company', async () => {
    expect(await facts("I've been living in Utrecht since 2020.")).toEqual([
      ['speaker', 'home city', 'Utrecht'],
    ]);
    expect(await facts("I'm Maya, senior buyer over at Fenwick Foods.")).toEqual([
      ['speaker', 'name', 'Maya'],
      ['speaker', 'job title', 'senior buyer'],
      ['speaker', 'employer', 'Fenwick Foods'],
    ]);
  });

  it('reads "I\'d much rather X than Y" as a preference keyed by the kind of X', async () => {
    expect(await facts("I'd much rather get a call than an email.")).toEqual([
      ['speaker', 'contact preference', 'a call'],
    ]);
  });

  it('reads the name of something the speaker or the team has, and nothing from meeting someone', async () => {
    expect(await facts('I have a dog named Max.')).toEqual([['speaker', 'dog name', 'Max']]);
    expect(await facts("We've got a minibus called Daisy since March.")).toEqual([
      ['we', 'minibus name', 'Daisy'],
    ]);
    expect(await facts('I met a man named Tom at the station.')).toEqual([]);
  });

  it("reads what the speaker says of a relative as the relative's attribute, keyed by the relation", async () => {
    expect(await facts('My brother lives in Gdansk.')).toEqual([['speaker', 'brother home city', 'Gdansk']]);
    expect(await facts('My dad is allergic to shellfish.')).toEqual([
      ['speaker', 'dad allergy', 'shellfish'],
    ]);
    expect(await facts('My older sister works as a midwife.')).toEqual([
      ['speaker', 'older sister job title', 'midwife'],
    ]);
    expect(await facts('My son is coming over tonight.')).toEqual([]);
  });

  it('keeps the "\'s" that ends a name, and cuts one that owns what follows', async () => {
    expect(await facts("I work at Sainsbury's.")).toEqual([['speaker', 'employer', "Sainsbury's"]]);
    expect(await facts("I work as a porter at St Thomas's on nights.")).toEqual([
      ['speaker', 'job title', 'porter'],
      ['speaker', 'employer', "St Thomas's"],
    ]);
    expect(await facts("I work for Initech's payroll team.")).toEqual([]);
  });

  it("keeps the speaker's own attribute apart from a relative's of the same name", async () => {
    const after = await factsAfter("My daughter's birthday is 3 August.", 'My birthday is 9 October.');
    expect(after.map((f) => [f.key, f.value])).toEqual([['birthday', '9 October']]);
    expect(await facts('My uncle lives in Cork, and I live in Galway.')).toEqual([
      ['speaker', 'uncle home city', 'Cork'],
      ['speaker', 'home city', 'Galway'],
    ]);
  });

  it('keys an attribute of a thing the speaker owns without the possessive, and drops a purpose after the value', async () => {
    expect(await facts("My bike's frame number is WTU-5521, for the insurance.")).toEqual([
      ['speaker', 'bike frame number', 'WTU-5521'],
    ]);
  });
});

describe('named things, in more of the ways they are named', () => {
  it('reads "our <Name> <thing>" as that thing, not as ours', async () => {
    expect(await facts('Our Leeds depot is managed by Tariq Khan.')).toEqual([
      ['Leeds depot', 'manager', 'Tariq Khan'],
    ]);
    expect(await facts('Our Leeds depot cutoff is 5 pm.')).toEqual([['Leeds depot', 'cutoff', '5 pm']]);
    expect(await facts('Our budget is $5,000.')).toEqual([['we', 'budget', '$5,000']]);
  });

  it('lets "the <words> project" own what it has', async () => {
    expect(await facts("The onboarding project's sponsor is Grace Lee.")).toEqual([
      ['onboarding project', 'sponsor', 'Grace Lee'],
    ]);
  });

  it('reads the verb of a plural subject', async () => {
    expect(await facts('The Atlas certificates expire on 30 June.')).toEqual([
      ['Atlas', 'certificates expire', '30 June'],
    ]);
    expect(await facts('The drivers love the new route.')).toEqual([]);
  });

  it('reads a state with a time or cause after it, and a due date of what a thing has', async () => {
    expect(await facts('Press 4 is out of action until Monday.')).toEqual([
      ['Press 4', 'status', 'out of action'],
    ]);
    expect(await facts('The scanner in Lab C is offline for repairs.')).toEqual([
      ['scanner in Lab C', 'status', 'offline'],
    ]);
    expect(await facts("Truck 9's insurance is due on 1 October.")).toEqual([
      ['Truck 9', 'insurance due date', '1 October'],
    ]);
  });

  it('reads no value from a verb in progress', async () => {
    expect(await facts('The Falcon team is working on the API.')).toEqual([]);
    expect(await facts('The lorry is blocking the entrance.')).toEqual([]);
  });

  it('reads no value from a likeness or a bare judgement, but still from a state', async () => {
    expect(await facts('My team is like my second family.')).toEqual([]);
    expect(await facts("The Harlow venue's acoustics are incredible.")).toEqual([]);
    expect(await facts('The Harlow venue is amazing.')).toEqual([]);
    expect(await facts('The Harlow venue is closed.')).toEqual([['Harlow venue', 'status', 'closed']]);
  });

  it('leaves "for sure" and "of course" out of the key', async () => {
    expect(await facts('Oslo is my favourite city for sure.')).toEqual([
      ['speaker', 'favourite city', 'Oslo'],
    ]);
    expect(await facts('Bergen is our main depot of course.')).toEqual([['we', 'main depot', 'Bergen']]);
  });
});

describe('relations and decisions in everyday words', () => {
  it('reads "cannot run without", "is hitting", "is holding up" and "have replaced"', async () => {
    expect(await edges("The billing job can't run without the ledger service.")).toEqual([
      ['billing job', 'depends_on', 'ledger service'],
    ]);
    expect(await edges('Driver shortages are hitting the Leeds depot.')).toEqual([
      ['Driver shortages', 'affects', 'Leeds depot'],
    ]);
    expect(await edges('The security review is holding up the Falcon release.')).toEqual([
      ['security review', 'blocks', 'Falcon release'],
    ]);
    expect(await edges('The new kiosks have replaced the paper forms.')).toEqual([
      ['new kiosks', 'replaces', 'paper forms'],
    ]);
    expect(await edges("The billing job can't run today.")).toEqual([]);
  });

  it('reads a booking or a hire as a decision, and a negation inside its reason does not negate it', async () => {
    expect(await facts('We booked the Grand Hall for the awards night since it has parking.')).toEqual([
      ['awards night', 'decision', 'Grand Hall'],
      ['awards night', 'decision reason', 'it has parking'],
    ]);
    expect(
      await facts("We picked Kestrel as our courier because the others don't deliver on Sundays."),
    ).toEqual([
      ['courier', 'decision', 'Kestrel'],
      ['courier', 'decision reason', "the others don't deliver on Sundays"],
    ]);
    expect(await facts('We booked a room for three.')).toEqual([]);
  });
});

describe('changes and roles, said the way people report them', () => {
  it('reads what was done to a thing as its state', async () => {
    expect(await facts('The Harbor permit has been submitted.')).toEqual([
      ['Harbor permit', 'status', 'submitted'],
    ]);
    expect(await facts('Good news, the Harbor permit got approved!')).toEqual([
      ['Harbor permit', 'status', 'approved'],
    ]);
  });

  it('reads "is up to N" as the value, and cuts a reason after it', async () => {
    expect(await facts('Signups for Brightfest are up to 2,400 now that the line-up is out.')).toEqual([
      ['Brightfest', 'signups', '2,400'],
    ]);
    expect(await facts('A coffee at Brew Lab is £3 because oat milk costs extra.')).toEqual([
      ['Brew Lab', 'coffee', '£3'],
    ]);
    expect(await facts('It is up to you.')).toEqual([]);
  });

  it('reads what a source confirmed as stated, and nothing from confirming alone', async () => {
    expect(await facts('Update: the auditors confirmed that the Kestrel invoice is $4,200.')).toEqual([
      ['Kestrel', 'invoice', '$4,200'],
    ]);
    expect(await facts('We confirmed the booking.')).toEqual([]);
  });

  it('reads who holds a role when the person comes first', async () => {
    expect(
      await facts('Going forward, Omar Haddad replaces Lea Roth as our account manager at Vireo.'),
    ).toEqual([['Vireo', 'account manager', 'Omar Haddad']]);
    expect(await facts('Nadia Petrova chairs the finance committee.')).toEqual([
      ['finance committee', 'chaired by', 'Nadia Petrova'],
    ]);
    expect(await facts("No wait, it's Tom Berg who chairs the finance committee, not Nadia.")).toEqual([
      ['finance committee', 'chaired by', 'Tom Berg'],
    ]);
    expect(await facts('Hang on, the Brightfest budget is £9,000.')).toEqual([
      ['Brightfest', 'budget', '£9,000'],
    ]);
  });
});

describe('values and owners in shorter and looser forms', () => {
  it('reads a noun\'s "\'s" before a value as "is", an attribute without its owner', async () => {
    expect(await facts("Check-in deadline's 4 pm on Fridays.")).toEqual([
      ['', 'check-in deadline', '4 pm on Fridays'],
    ]);
    expect(await facts('Lisbon is lovely.')).toEqual([]);
  });

  it('reads a passive in progress, and "runs <amount>" as what the attribute comes to', async () => {
    expect(await facts('The Orion refund is being handled by Marta Silva.')).toEqual([
      ['Orion', 'refund handled by', 'Marta Silva'],
    ]);
    expect(await facts('Parking at Kings Cross runs £30 a day.')).toEqual([
      ['Kings Cross', 'parking', '£30 a day'],
    ]);
  });

  it('reads a time word before "\'s" as when, not whose', async () => {
    expect(await facts("Tomorrow's duty nurse is Ama Owusu.")).toEqual([['', 'duty nurse', 'Ama Owusu']]);
  });

  it('reads "Name\'s X, <role> at <company>", a state like "tentative", and an adverb before the verb', async () => {
    expect(await facts("Name's Kofi Mensah, head of sales at Tallis Foods.")).toEqual([
      ['speaker', 'name', 'Kofi Mensah'],
      ['speaker', 'job title', 'head of sales'],
      ['speaker', 'employer', 'Tallis Foods'],
    ]);
    expect(await facts('The Rivera booking from Sunline Travel is still tentative.')).toEqual([
      ['Rivera booking from Sunline Travel', 'status', 'tentative'],
    ]);
    expect(await facts('The Kepler room actually seats 12 now.')).toEqual([
      ['Kepler room', 'capacity', '12'],
    ]);
  });

  it('reads decisions a group makes, and what a choice was made to do', async () => {
    expect(await facts('The committee opted for Brightline as our caterer, since they cook halal.')).toEqual([
      ['caterer', 'decision', 'Brightline'],
      ['caterer', 'decision reason', 'they cook halal'],
    ]);
    expect(await facts('We picked Jonas Berg to run the pilot because he knows the client.')).toEqual([
      ['pilot', 'decision', 'Jonas Berg'],
      ['pilot', 'decision reason', 'he knows the client'],
    ]);
  });

  it('reads "has been replaced by", two relations joined by ", and", and names with a hyphenated "on-"', async () => {
    expect(await edges('The fax line has been replaced by the Vireo portal.')).toEqual([
      ['Vireo portal', 'replaces', 'fax line'],
    ]);
    expect(await facts('The fax line has been replaced by the Vireo portal.')).toEqual([]);
    expect(
      await edges('The billing job uses Stripe, and the payroll export relies on the ledger service.'),
    ).toEqual([
      ['billing job', 'uses', 'Stripe'],
      ['payroll export', 'depends_on', 'ledger service'],
    ]);
    expect(await edges('The nightly smoke tests are blocking the on-call handover.')).toEqual([
      ['nightly smoke tests', 'blocks', 'on-call handover'],
    ]);
  });
});

describe('events of things, amounts said other ways, roles and proposals', () => {
  it('reads an event of a thing, and what missing a piece of work blocks', async () => {
    expect(await edges('Delays at Brightline Foods affect the Orion launch.')).toEqual([
      ['Delays at Brightline Foods', 'affects', 'Orion launch'],
    ]);
    expect(await edges('Missing the fire inspection blocks the Harbor opening.')).toEqual([
      ['fire inspection', 'blocks', 'Harbor opening'],
    ]);
  });

  it('reads no blocker from weather: a capitalised first word that is a describing word is no name', async () => {
    expect(await edges('Heavy rain is holding up the Orion rollout.')).toEqual([]);
    expect(await edges('Globex is blocking the Orion release.')).toEqual([
      ['Globex', 'blocks', 'Orion release'],
    ]);
  });

  it('reads "comes to", a three-word share, "in <Place>", and an owner after "with"', async () => {
    expect(await facts('The invoice comes to €9,300.')).toEqual([['', 'invoice', '€9,300']]);
    expect(await facts('Tallis Foods offers a 2% early settlement discount.')).toEqual([
      ['Tallis Foods', 'early settlement discount', '2%'],
    ]);
    expect(await facts('The new depot will be in Leeds.')).toEqual([['', 'new depot', 'Leeds']]);
    expect(await facts('The team is in good shape.')).toEqual([['', 'team', 'in good shape']]);
    expect(await facts('The planning review with Vireo is in the first week of May.')).toEqual([
      ['Vireo', 'planning review', 'the first week of May'],
    ]);
  });

  it("reads a person's role, and nothing from a place said to be a thing", async () => {
    expect(await facts('Grace Lee is the head of finance.')).toEqual([
      ['Grace Lee', 'role', 'head of finance'],
    ]);
    expect(await facts('Lisbon is a city.')).toEqual([]);
  });

  it('proposes a plan a named party could move to, and a person for a role, for review only', async () => {
    expect(await factsAfter('If Globex downgraded to the basic plan, what would we lose?')).toMatchObject([
      { entity: 'Globex', key: 'plan', value: 'the basic plan', kind: 'hypothetical' },
    ]);
    expect(await factsAfter('Should Lena Fischer be the account manager for Umbrella Health?')).toMatchObject(
      [{ entity: 'Umbrella Health', key: 'account manager', value: 'Lena Fischer', kind: 'hypothetical' }],
    );
    expect(await factsAfter('Would Tom be a good fit for the team?')).toEqual([]);
  });
});
